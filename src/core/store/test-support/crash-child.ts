import { writeSync } from 'node:fs';
import { FaultFs } from '../../fs/fault-fs.js';
import { openStore } from '../index.js';
import { runScenario } from './crash-scenario.js';

/**
 * Crash-suite child: runs the scenario against ROOT and SIGKILLs itself right after its K-th
 * write/fsync/rename (K = 0: run to the end and print the op count). Acks go to stdout with a
 * synchronous write, so everything acknowledged before the kill reaches the parent.
 */
const [root, killAtArg, variantArg] = process.argv.slice(2);
const killAt = Number(killAtArg);
// Odd variants tear the K-th op when it is a write: a kill in the middle of a large write.
const fs = new FaultFs({
  tearWriteAt: Number(variantArg) % 2 === 1 ? killAt : undefined,
  afterOp: (n) => {
    if (n === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
const out = (value: unknown): void => {
  writeSync(1, `${JSON.stringify(value)}\n`);
};
const store = await openStore(root!, { fs, metadataFlushMs: 600_000 });
// The store's file system: the fault layer, wrapped by the cipher when the store is encrypted.
await runScenario(store, Number(variantArg), (a) => out(a), store.fileSystem);
out({ kind: 'done', ops: fs.count });
