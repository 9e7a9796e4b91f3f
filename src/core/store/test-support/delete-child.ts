import { writeSync } from 'node:fs';
import { FaultFs } from '../../fs/fault-fs.js';
import { openStore } from '../index.js';

/**
 * Crash child for delete and purge: opens the store at ROOT, then deletes the sessions named in
 * IDS (comma separated) — or, with IDS = PURGE, runs `baton purge` — and SIGKILLs itself right
 * after the K-th disk-changing operation (K = 0: run to the end and print how many it took).
 */
const [root, idsArg, killAtArg] = process.argv.slice(2);
const killAt = Number(killAtArg);
let armed = false;
let ops = 0;
const fs = new FaultFs({
  afterOp: () => {
    if (!armed) return;
    ops++;
    if (ops === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
const store = await openStore(root!, { fs });
if (idsArg === 'PURGE') {
  const { planPurge, purge } = await import('../../lifecycle/purge.js');
  const plan = await planPurge(store, root!, fs);
  armed = true;
  await purge(store, plan, fs);
} else {
  armed = true;
  for (const id of idsArg!.split(',')) await store.delete(id);
}
armed = false;
await store.close();
writeSync(1, `${JSON.stringify({ done: true, ops })}\n`);
