/**
 * Resume candidates for 10,000 sessions in 500 working directories: list() from the index against
 * a full scan of the same store (every session.json and messages.jsonl parsed, what a picker that
 * reads logs does), measured in the same run.
 * Setup writes through a DurableFs whose fsyncs are no-ops (setup speed only); measurements use the real fs.
 * Run: npx tsx bench/store/list.ts
 */
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../../src/core/fs/durable-fs.js';
import { openStore } from '../../src/core/store/index.js';
import { median, percentile, printTable, timeIt } from './stats.js';

const SESSIONS = 10_000;
const CWDS = 500;
const MESSAGES_PER_SESSION = 20;
const RUNS = 20;
const FULL_RUNS = 3;

const noSyncFs: DurableFs = {
  ...nodeDurableFs,
  async open(path, flags, mode) {
    const f = await nodeDurableFs.open(path, flags, mode);
    return { path: f.path, write: (d, p) => f.write(d, p), read: (l, p) => f.read(l, p), sync: async () => undefined, truncate: (l) => f.truncate(l), stat: () => f.stat(), close: () => f.close() };
  },
  fsyncDir: async () => undefined,
};

await mkdir('bench/.data', { recursive: true });
const dir = await mkdtemp(join('bench/.data', 'list-'));
const root = join(dir, 'store');
try {
  const setup = await openStore(root, { fs: noSyncFs });
  const body = 'z'.repeat(500);
  for (let i = 0; i < SESSIONS; i++) {
    await setup.createSession(
      { cwd: `/home/u/project-${i % CWDS}`, gitRoot: `/home/u/project-${i % CWDS}`, branch: 'main', title: `session ${i}`, source: { tool: i % 2 ? 'claude' : 'codex' }, holder: 'terminal' },
      Array.from({ length: MESSAGES_PER_SESSION }, (_, j) => ({ role: j % 2 ? ('assistant' as const) : ('user' as const), content: body })),
    );
  }
  await setup.close();

  const store = await openStore(root);
  const cwd = '/home/u/project-42';
  let count = 0;
  // Cold: a fresh store instance each time (the CLI starting up). Warm: the same instance asked again
  // (the desktop picker refreshing), where the index is re-validated by stat and only new journal bytes read.
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const fresh = await openStore(root);
    cold.push(await timeIt(async () => (count = (await fresh.list()).filter((r) => r.cwd === cwd).length)));
    await fresh.close();
  }
  const fromIndex: number[] = [];
  for (let i = 0; i < RUNS; i++) fromIndex.push(await timeIt(async () => (count = (await store.list()).filter((r) => r.cwd === cwd).length)));
  const fullScan: number[] = [];
  let scanned = 0;
  for (let i = 0; i < FULL_RUNS; i++) {
    fullScan.push(
      await timeIt(async () => {
        const sessionsDir = join(root, 'sessions');
        const found = [];
        for (const id of await readdir(sessionsDir)) {
          const doc = JSON.parse(await readFile(join(sessionsDir, id, 'session.json'), 'utf8')) as { cwd: string };
          const lines = (await readFile(join(sessionsDir, id, 'messages.jsonl'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
          if (doc.cwd === cwd) found.push({ doc, messages: lines.length });
        }
        scanned = found.length;
      }),
    );
  }
  await store.close();
  if (count !== scanned) throw new Error(`index found ${count}, scan found ${scanned}`);
  printTable(`Resume candidates for one cwd among ${SESSIONS} sessions in ${CWDS} cwds (${count} found; ms)`, ['method', 'median', 'p95', 'ratio to baseline'], [
    ['full scan of session.json + messages.jsonl (baseline)', median(fullScan), percentile(fullScan, 95), 1],
    ['list() from index.json, cold (new store instance)', median(cold), percentile(cold, 95), median(cold) / median(fullScan)],
    ['list() from index.json, warm (same instance)', median(fromIndex), percentile(fromIndex, 95), median(fromIndex) / median(fullScan)],
  ]);
  console.log(`index is ${(median(fullScan) / median(cold)).toFixed(1)}× (cold) and ${(median(fullScan) / median(fromIndex)).toFixed(1)}× (warm) faster than the full scan`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
