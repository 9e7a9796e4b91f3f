// Opening the store as `baton handoff` does, in a store that already holds many sessions (issue
// 20, "CLI start-up"): the open checks only index.json's version (IndexFile.isNewer); before, it
// read index.json's rows and the whole journal (up to INDEX_COMPACT_BYTES) to learn it. The
// baseline, measured in the same rounds, is the open followed by that full read.
//
//   npx tsx bench/handoff/store-open.ts [sessions=2000] [runs=30]
//
// The store is written directly (index.json with `sessions` rows, a journal of one line per row
// up to INDEX_COMPACT_BYTES, the largest it gets before it is folded): only the index is read by
// an open, so no session directories are needed. Wall and CPU (user + system) of each open.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_SCHEMA_VERSION, indexRowOf } from '../../src/shared/session.js';
import { nodeDurableFs } from '../../src/core/fs/durable-fs.js';
import { canonicalJson, crc32Hex } from '../../src/core/store/canonical.js';
import { openStore } from '../../src/core/store/index.js';
import { INDEX_COMPACT_BYTES, INDEX_FILE, INDEX_JOURNAL, IndexFile, rowOf } from '../../src/core/store/index-file.js';
import { percentile, printTable } from '../stats.js';

const [sessions = 2000, runs = 30] = process.argv.slice(2).map(Number);
const root = await mkdtemp(join(tmpdir(), 'baton-bench-open-'));
const store = await openStore(root, { keyStore: null });
const doc = await store.createSession({ cwd: '/work/project', gitRoot: '/work/project', branch: 'main', title: 'a session title of ordinary length', source: { tool: 'baton' }, holder: 'terminal' });
await store.close();
const template = rowOf(indexRowOf(doc), doc.revision);
const rows = Array.from({ length: sessions }, (_, i) => ({ ...template, id: `s-bench${String(i).padStart(6, '0')}-0123456789abcdef`, title: `session ${i}` }));
await writeFile(join(root, INDEX_FILE), JSON.stringify({ schemaVersion: SESSION_SCHEMA_VERSION, rows }), { mode: 0o600 });
const journal: string[] = [];
let journalBytes = 0;
for (let i = 0; journalBytes < INDEX_COMPACT_BYTES - 4096; i++) {
  const row = { ...rows[i % rows.length]!, revision: 1 + Math.floor(i / rows.length) };
  const line = `${JSON.stringify({ ...row, crc: crc32Hex(canonicalJson(row)) })}\n`;
  journal.push(line);
  journalBytes += Buffer.byteLength(line);
}
await writeFile(join(root, INDEX_JOURNAL), journal.join(''), { mode: 0o600 });

interface Sample {
  wallMs: number;
  cpuMs: number;
}
async function timed(work: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const cases: { name: string; run: () => Promise<void> }[] = [
  {
    name: 'before: open + the full index read the open used to make',
    run: async () => {
      const s = await openStore(root, { keyStore: null });
      const state = await new IndexFile(nodeDurableFs, root).read();
      if (state.rows.size < sessions) throw new Error(`read ${state.rows.size} rows, expected ${sessions}`);
      await s.close();
    },
  },
  {
    name: 'now: open (version only)',
    run: async () => {
      const s = await openStore(root, { keyStore: null });
      if (s.readOnly) throw new Error('the store opened read-only');
      await s.close();
    },
  },
];
const samples = new Map(cases.map((c) => [c.name, [] as Sample[]]));
for (const c of cases) await c.run(); // warm: the page cache holds the files, the code is compiled
for (let round = 0; round < runs; round++) for (const c of cases) samples.get(c.name)!.push(await timed(c.run));
console.log(`store with ${sessions} sessions: index.json ${(Buffer.byteLength(JSON.stringify({ rows })) / 1024).toFixed(0)} KiB, journal ${(journalBytes / 1024).toFixed(0)} KiB (${journal.length} lines); ${runs} rounds, cases alternating`);
printTable(
  cases.map((c) => {
    const s = samples.get(c.name)!;
    return { case: c.name, n: s.length, 'wall p50 ms': percentile(s.map((x) => x.wallMs), 0.5), 'wall p95': percentile(s.map((x) => x.wallMs), 0.95), 'CPU p50 ms': percentile(s.map((x) => x.cpuMs), 0.5) };
  }),
);
await rm(root, { recursive: true, force: true });
