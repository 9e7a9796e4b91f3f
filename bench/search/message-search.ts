/**
 * Cross-session search at the scale: 2,000 sessions, 1,000,000 messages in a real store
 * (temp dir), indexed by the host's search service (src/core/search), then queried end to end
 * (index + reading the hit messages the index names from the logs for the exact message and snippet). Memory is the
 * heap growth the index causes (gc before and after), JS heap plus typed-array bytes. Baseline in the same run: the same queries
 * answered by scanning every log (store.readMessages of every session) — what search costs without
 * an index.
 * Wall time and CPU time (user + system, the whole process) are printed side by side.
 * Run: node --expose-gc --import tsx bench/search/message-search.ts [sessions] [messagesPerSession]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/core/store/index.js';
import { createSearchService, messageMatches, SEARCH_INDEX_FILE } from '../../src/core/search/search-service.js';
import { MessageIndex } from '../../src/core/search/message-index.js';
import { printTable, summarize } from '../stats.js';

const SESSIONS = Number(process.argv[2] ?? 2_000);
const PER_SESSION = Number(process.argv[3] ?? 500);
const QUERY_RUNS = 20;
const BASELINE_RUNS = 1;

// A vocabulary like code talk: 6,000 words from syllables, plus identifiers with numbers.
const SYLLABLES = ['ka', 'ro', 'mi', 'ten', 'vor', 'lu', 'sa', 'pex', 'dri', 'on', 'gal', 'fu', 'ne', 'tor', 'bri', 'zu', 'ha', 'qui'];
const WORDS = Array.from({ length: 6_000 }, (_, i) => SYLLABLES[i % 18]! + SYLLABLES[Math.floor(i / 18) % 18]! + SYLLABLES[Math.floor(i / 324) % 18]!);
// mulberry32: a seeded PRNG exact in 32-bit integer arithmetic (the same corpus every run).
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const rand = (n: number) => Math.floor(random() * n);
const sentence = (n: number) => Array.from({ length: n }, () => (rand(10) === 0 ? `worker${rand(500)}.ts` : WORDS[Math.floor(WORDS.length * (rand(1000) / 1000) ** 2)])).join(' ');

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc --import tsx');
const heap = () => {
  gc();
  gc();
  // The postings are typed arrays, whose bytes live outside the JS heap: count both.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** CPU (user + system) since `from`, in ms: beside wall time, since the machine is shared. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

const dir = await mkdtemp(join(tmpdir(), 'baton-bench-search-'));
try {
  const store = await openStore(dir);
  const seeded = performance.now();
  const phraseSession = Math.floor(SESSIONS / 2);
  for (let s = 0; s < SESSIONS; s++) {
    const messages = Array.from({ length: PER_SESSION }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: sentence(8 + rand(30)) }));
    if (s === phraseSession) messages[PER_SESSION - 3] = { role: 'assistant', content: 'the quokka-calibrated retry budget caps backoff at thirty seconds' };
    await store.createSession({ cwd: `/work/repo-${s % 40}`, gitRoot: null, branch: null, title: `Session ${s}`, source: { tool: 'claude' }, holder: 'terminal' }, messages);
  }
  const seedMs = performance.now() - seeded;

  const before = heap();
  const built = performance.now();
  const buildCpu = process.cpuUsage();
  const search = await createSearchService({ store, dataDir: dir });
  await search.syncAll();
  const buildMs = performance.now() - built;
  const buildCpuMs = cpuMs(buildCpu);
  const indexBytes = heap() - before;
  await search.close();
  const fileBytes = (await stat(join(dir, SEARCH_INDEX_FILE))).size;

  // A restart: the index is loaded from the data dir, no log is read again.
  const reloaded = performance.now();
  const reloadCpu = process.cpuUsage();
  const again = await createSearchService({ store, dataDir: dir });
  await again.syncAll();
  const reloadMs = performance.now() - reloaded;
  const reloadCpuMs = cpuMs(reloadCpu);

  const queries = ['quokka calibrated', 'worker17.ts', WORDS[10]!, `${WORDS[200]} ${WORDS[3]}`, 'nothingmatchesthis'];
  const rows: Record<string, string | number>[] = [];
  const rowsList = await store.list();
  for (const query of queries) {
    // Baseline: every session's log read and scanned.
    const terms = MessageIndex.terms(query);
    const scan: number[] = [];
    const scanCpu: number[] = [];
    let scanHits = 0;
    for (let r = 0; r < BASELINE_RUNS; r++) {
      const t = performance.now();
      const c = process.cpuUsage();
      scanHits = 0;
      for (const row of rowsList) if ((await store.readMessages(row.id)).some((m) => messageMatches(m, terms))) scanHits++;
      scan.push(performance.now() - t);
      scanCpu.push(cpuMs(c));
    }
    const times: number[] = [];
    const cpu: number[] = [];
    let hits = 0;
    for (let r = 0; r < QUERY_RUNS; r++) {
      const c = process.cpuUsage();
      const result = await again.searchSessions(query);
      cpu.push(cpuMs(c));
      times.push(result.tookMs);
      hits = result.hits.length;
    }
    const s = summarize(times);
    rows.push({ query, 'baseline: scan all logs ms': summarize(scan).p50, 'baseline CPU ms': summarize(scanCpu).p50, 'sessions matching (scan)': scanHits, 'index p50 ms': s.p50, 'index p95 ms': s.p95, 'index p50 CPU ms': summarize(cpu).p50, 'sessions answered (max 20)': hits });
  }
  await again.close();
  await store.close();
  console.log(`${SESSIONS.toLocaleString('en-US')} sessions × ${PER_SESSION} = ${(SESSIONS * PER_SESSION).toLocaleString('en-US')} messages; seeded in ${(seedMs / 1000).toFixed(1)} s`);
  printTable([{ 'index build s': +(buildMs / 1000).toFixed(1), 'build CPU s': +(buildCpuMs / 1000).toFixed(1), 'index memory MB (heap + array buffers)': +(indexBytes / 1024 / 1024).toFixed(1), 'index file MB': +(fileBytes / 1024 / 1024).toFixed(1), 'restart (load, no log read) s': +(reloadMs / 1000).toFixed(2), 'restart CPU s': +(reloadCpuMs / 1000).toFixed(2) }]);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  printTable(rows);
} finally {
  await rm(dir, { recursive: true, force: true });
}
