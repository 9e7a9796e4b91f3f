/**
 * Open + recover a session log of 1 MB, 100 MB and 1 GB that ends in a torn tail: with the
 * checkpoint (scan only the tail) against a full scan of the same file (checkpoint removed),
 * measured in the same run. Data lives in bench/.data and is removed at the end.
 * Run: npx tsx bench/store/recovery.ts
 */
import { appendFile, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../../src/core/store/index.js';
import { CHECKPOINT_FILE } from '../../src/core/store/checkpoint.js';
import { median, percentile, printTable, timeIt } from './stats.js';

const SIZES = [
  { label: '1 MB', bytes: 1 << 20 },
  { label: '100 MB', bytes: 100 << 20 },
  { label: '1 GB', bytes: 1 << 30 },
];
const RUNS = 15;
/** A full scan of 1 GB takes seconds: measured fewer times. */
const FULL_SCAN_RUNS = (bytes: number): number => (bytes >= 1 << 30 ? 1 : bytes >= 100 << 20 ? 3 : RUNS);
const BATCH = 1000;
const content = 'y'.repeat(880);
const TORN = '{"role":"assistant","content":"torn by a crash in the middle of a wri';

await mkdir('bench/.data', { recursive: true });
const dir = await mkdtemp(join('bench/.data', 'recovery-'));
const root = join(dir, 'store');
const rows: Array<Array<string | number>> = [];
try {
  for (const size of SIZES) {
    const writer = await openStore(root, { metadataFlushMs: 5 });
    const s = await writer.createSession({ cwd: '/bench', gitRoot: null, branch: null, title: size.label, source: { tool: 'baton' }, holder: 'terminal' });
    const log = join(writer.sessionDir(s.id), 'messages.jsonl');
    while ((await stat(log)).size < size.bytes) await writer.append(s.id, 1, Array.from({ length: BATCH }, () => ({ role: 'assistant' as const, content })));
    await writer.close();
    const recover = async (): Promise<void> => {
      await appendFile(log, TORN);
      const store = await openStore(root);
      const report = await store.recover(s.id);
      if (!report.truncatedTail) throw new Error('torn tail not found');
      await store.close();
    };
    const withCp: number[] = [];
    for (let i = 0; i < RUNS; i++) withCp.push(await timeIt(recover));
    const cp = join(writer.sessionDir(s.id), CHECKPOINT_FILE);
    const full: number[] = [];
    for (let i = 0; i < FULL_SCAN_RUNS(size.bytes); i++) {
      await rename(cp, `${cp}.aside`);
      full.push(await timeIt(recover));
      await rm(cp, { force: true });
      await rename(`${cp}.aside`, cp);
    }
    const mb = (await stat(log)).size / (1 << 20);
    rows.push([`${size.label} (${mb.toFixed(0)} MiB)`, median(withCp), percentile(withCp, 95), median(full), percentile(full, 95), median(full) / median(withCp)]);
    await rm(writer.sessionDir(s.id), { recursive: true, force: true });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
printTable(`Open store + recover one session log with a torn tail (ms; ${RUNS} runs with checkpoint)`, ['log size', 'checkpoint median', 'checkpoint p95', 'full scan median (baseline)', 'full scan p95', 'speed-up'], rows);
