import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, truncate, unlink, utimes, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScanWorker, SCAN_WORKER_FILE } from '../../../scripts/build-scan-worker.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { POOL_MIN_FILES, POOL_TASK_FILES, SCAN_HEAP_CAP_MIN_FILES, SCAN_WORKER_FREE_YOUNG_MB, SCAN_WORKER_YOUNG_MB, SCAN_WORKERS, WHOLE_READ_MAX_BYTES } from './limits.js';
import { defaultWorkers, startPoolFor, workersWanted, workerYoungMb } from './scan-pooling.js';
import { nodeImportReader, type ImportReader } from './reader.js';
import { scanCandidateIndexFull } from './scan.js';
import { SCAN_WORKER_FILE as POOL_WORKER_FILE, startScanPool, type ScanPool } from './scan-pool.js';
import { summarizeForScan, type SummarizeJob } from './summarize-jobs.js';
import { claude, claudeLogPath, codex, codexLogPath, jsonl } from './test-fixtures/build-logs.js';

/**
 * The pooled cold scan (scan-pool.ts, the real worker bundle as scripts/build-scan-worker.js
 * writes it) gives exactly what the in-thread scan gives: over generated corpora with damaged,
 * empty, huge, compressed, vanishing and changing files, and with workers that cannot start or
 * crash (their tasks are summarized in the scan's thread).
 */

interface Spec {
  path: string;
  bytes: Buffer;
  mtime: number;
  /** What happens to it after the scan's stat and before its read. */
  change: 'none' | 'vanish' | 'append' | 'truncate' | 'garbage' | 'directory';
}

const CWDS = ['/home/dev/a', '/home/dev/b', '/srv/x y'];

/** One corpus as bytes (written twice, once per scan, so both see the same files). */
function corpus(seed: number): Spec[] {
  const next = seededRandom(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const n = 1 + Math.floor(next() * 14);
  const specs: Spec[] = [];
  for (let f = 0; f < n; f++) {
    const id = `${String(seed).padStart(8, '0')}-0000-4000-8000-${String(f).padStart(12, '0')}`;
    const isClaude = next() < 0.5;
    const cwd = pick(CWDS);
    let ts = Date.parse('2026-11-01T10:00:00.000Z') + seed * 1_000_000 + f * 10_000;
    const stamp = (): string => new Date((ts += 1000)).toISOString();
    const lines: unknown[] = [];
    const turns = Math.floor(next() * 6);
    const big = next() < 0.08; // past WHOLE_READ_MAX_BYTES: head + tail
    if (isClaude) {
      if (next() < 0.1) lines.push(claude.snapshot(`${id}-s`));
      for (let t = 0; t < turns; t++) {
        const c = { uuid: `${id}-u${t}`, parentUuid: t === 0 ? null : `${id}-a${t - 1}`, cwd, sessionId: id, timestamp: stamp() };
        lines.push(next() < 0.15 ? claude.meta(c, '<command-name>/clear</command-name>') : claude.user(c, `prompt ${seed}/${f}/${t} ${next() < 0.05 ? 'key sk-ant-api03-' + 'A'.repeat(93) + 'AA' : ''}`));
        const filler = big ? 'x'.repeat(Math.floor(WHOLE_READ_MAX_BYTES / 2 + next() * 40_000)) : 'ok';
        lines.push(claude.assistant({ uuid: `${id}-a${t}`, parentUuid: `${id}-u${t}`, cwd, sessionId: id, timestamp: stamp() }, `${id}-m${t}`, claude.text(filler)));
      }
    } else {
      lines.push(codex.meta(id, cwd));
      for (let t = 0; t < turns; t++) {
        lines.push(codex.message('user', `prompt ${seed}/${f}/${t}`));
        if (next() < 0.4) lines.push(codex.call(`c${t}`, 'shell', { command: ['ls'] }), codex.output(`c${t}`, big ? 'y'.repeat(30_000 + Math.floor(next() * 30_000)) : 'Exit code: 0'));
        lines.push(codex.message('assistant', 'done'));
      }
    }
    let text = jsonl(lines);
    const damage = next();
    if (damage < 0.1) text += '{"type":"user","torn'; // torn tail
    else if (damage < 0.2) text = text.replace('\n', '\n{not json}\n'); // a damaged line
    else if (damage < 0.25) text = ''; // empty
    else if (damage < 0.28) text = '\u0000\u00ff garbage \ud800\n';
    const mtime = 1_790_000_000 + Math.floor(next() * 1000);
    const path = isClaude ? claudeLogPath('HOME', cwd, id) : codexLogPath(join('HOME', '.codex'), id, `2026/11/${String(1 + (f % 28)).padStart(2, '0')}`);
    const compressed = !isClaude && next() < 0.05;
    const r = next();
    const change: Spec['change'] = r < 0.06 ? 'vanish' : r < 0.12 ? 'append' : r < 0.17 ? 'truncate' : r < 0.2 ? 'garbage' : r < 0.22 ? 'directory' : 'none';
    specs.push({ path: compressed ? `${path}.zst` : path, bytes: Buffer.from(text), mtime, change });
  }
  return specs;
}

async function writeCorpus(home: string, specs: readonly Spec[]): Promise<void> {
  await rm(home, { recursive: true, force: true });
  for (const s of specs) {
    const path = s.path.replace(/^HOME/, home);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, s.bytes);
    await utimes(path, s.mtime, s.mtime);
  }
}

/** The changes made between the stat and the reads (in both scans at the same point: after the stats). */
async function change(home: string, specs: readonly Spec[]): Promise<void> {
  for (const s of specs) {
    const path = s.path.replace(/^HOME/, home);
    if (s.change === 'vanish') await unlink(path);
    else if (s.change === 'append') await appendFile(path, `${JSON.stringify(codex.message('user', 'appended later'))}\n`);
    else if (s.change === 'truncate') await truncate(path, Math.floor(s.bytes.length / 3));
    else if (s.change === 'garbage') await writeFile(path, '}}}\n');
    else if (s.change === 'directory') {
      await unlink(path);
      await mkdir(path);
    }
  }
}

/** node:fs, with the corpus changed right after the scan's stats (as if written during the scan). */
function changingReader(home: string, specs: readonly Spec[]): ImportReader {
  return {
    ...nodeImportReader,
    async statMany(paths) {
      const stats = await nodeImportReader.statMany!(paths);
      if (paths.some((p) => p.endsWith('.jsonl') || p.endsWith('.zst'))) await change(home, specs);
      return stats;
    },
  };
}

/** Everything a scan hands out, with the one field that is a clock (ms) left out. */
async function scanOf(root: string, data: string, specs: readonly Spec[], pool?: ScanPool) {
  const home = join(root, 'home');
  await writeCorpus(home, specs);
  await rm(data, { recursive: true, force: true });
  const partials: string[][] = [];
  const r = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile: join(data, 'importers-cache.json'), reader: changingReader(home, specs), ...(pool ? { pool } : {}), onPartial: (added) => partials.push(added.map((e) => e.path)) });
  return {
    entries: r.scan.entries.map((e) => e.candidate()),
    indexed: r.indexed.map((e) => ({ path: e.path, size: e.size, mtimeMs: e.mtimeMs, skip: e.skip, totals: e.totals })),
    // No digest cache when the scan read no digest.
    states: Object.entries(JSON.parse(await readFile(join(data, 'importers-cache.json'), 'utf8').catch(() => '{"entries":{}}')).entries),
    stats: { ...r.scan.stats, ms: 0 },
    partials,
  };
}

/** The pool's fallback, counting how often it ran (a pool whose workers did everything never calls it). */
let fallbacks = 0;
const inThread = (jobs: readonly SummarizeJob[]) => {
  fallbacks += 1;
  return summarizeForScan(nodeImportReader, jobs);
};

describe('the scan worker pool', () => {
  let root: string;
  let workerFile: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-pool-'));
    workerFile = join(root, SCAN_WORKER_FILE);
    await buildScanWorker(workerFile);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is started by a scan only for POOL_MIN_FILES new files or more, with workers asked for (BATON_SCAN_WORKERS, else SCAN_WORKERS)', async () => {
    expect(workersWanted({ env: {} })).toBe(SCAN_WORKERS);
    expect(workersWanted({ env: { BATON_SCAN_WORKERS: '0' } })).toBe(0);
    expect(workersWanted({ env: { BATON_SCAN_WORKERS: 'two' } })).toBe(SCAN_WORKERS);
    expect(workersWanted({ workers: 1, env: { BATON_SCAN_WORKERS: '0' } })).toBe(1);
    expect(startPoolFor(POOL_MIN_FILES - 1, { env: {} })).toBeNull();
    expect(startPoolFor(POOL_MIN_FILES, { env: { BATON_SCAN_WORKERS: '0' } })).toBeNull();
    const pool = startPoolFor(POOL_MIN_FILES, { env: {} });
    // No pool on one core: the workers would only compete with the scan.
    if (availableParallelism() < 2) expect(pool).toBeNull();
    else expect(pool).not.toBeNull();
    await pool?.close();
  });

  it('starts one worker fewer than the cores for a CLI listing (its thread parses too) while the heap grows freely, SCAN_WORKERS otherwise', async () => {
    expect([defaultWorkers(true, false, 2), defaultWorkers(true, false, 3), defaultWorkers(true, false, 16)]).toEqual([1, Math.min(2, SCAN_WORKERS), SCAN_WORKERS]);
    // Behind a page, or with the process's heap growth capped (100,000 sessions, a host's resident index), the default stays.
    expect([defaultWorkers(false, false, 2), defaultWorkers(true, true, 2)]).toEqual([SCAN_WORKERS, SCAN_WORKERS]);
    // Asked for, the count is the one asked for.
    expect(workersWanted({ env: { BATON_SCAN_WORKERS: '2' } }, { threadShare: true })).toBe(2);
    const cores = availableParallelism();
    const cli = startPoolFor(POOL_MIN_FILES, { env: {} });
    const host = startPoolFor(POOL_MIN_FILES, { env: {}, onPartial: () => undefined });
    try {
      if (cores < 2) return expect([cli, host]).toEqual([null, null]);
      // This test process never capped its heap (no scan here holds HEAP_GROWTH_CAP_MIN_FILES files).
      expect([cli!.alive, host!.alive]).toEqual([Math.min(SCAN_WORKERS, cores - 1), SCAN_WORKERS]);
    } finally {
      await Promise.all([cli?.close(), host?.close()]);
    }
  });

  it('keeps SCAN_WORKERS for a CLI listing once the scan capped the heap (SCAN_HEAP_CAP_MIN_FILES files), one fewer than the cores below', async () => {
    // In a child: the heap cap is for the whole process, and this one must stay uncapped.
    const child = (files: number) =>
      new Promise<number>((done, fail) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', `const h = await import(${JSON.stringify(join(import.meta.dirname, 'scan-heap.ts'))}); const p = await import(${JSON.stringify(join(import.meta.dirname, 'scan-pooling.ts'))}); h.limitScanHeapGrowth(${files}, false); process.stdout.write(String(p.workersWanted({ env: {} }, { threadShare: true })));`],
          (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(Number(stdout))),
        ),
      );
    const [below, capped] = await Promise.all([child(SCAN_HEAP_CAP_MIN_FILES - 1), child(SCAN_HEAP_CAP_MIN_FILES)]);
    expect([below, capped]).toEqual([Math.max(1, Math.min(SCAN_WORKERS, availableParallelism() - 1)), SCAN_WORKERS]);
  }, 60_000);

  it('gives a CLI listing’s worker a larger young generation while its heap grows freely, the small one to a capped heap or a host’s scan', async () => {
    expect(SCAN_WORKER_FREE_YOUNG_MB).toBeGreaterThan(SCAN_WORKER_YOUNG_MB);
    expect([workerYoungMb(true, false), workerYoungMb(true, true), workerYoungMb(false, false), workerYoungMb(false, true)]).toEqual([SCAN_WORKER_FREE_YOUNG_MB, SCAN_WORKER_YOUNG_MB, SCAN_WORKER_YOUNG_MB, SCAN_WORKER_YOUNG_MB]);
    // The worker runs with the size asked for: this one answers each task with its own limit as `bytes`.
    const reporting = join(root, 'reports-young.cjs');
    await writeFile(reporting, "const { parentPort, resourceLimits } = require('node:worker_threads'); parentPort.postMessage('baton-scan-worker-ready'); parentPort.on('message', (t) => parentPort.postMessage({ id: t.id, results: t.jobs.map(() => ({ ok: false, code: null, message: 'x' })), bytes: resourceLimits.maxYoungGenerationSizeMb }));");
    const job: SummarizeJob = { path: join(root, 'none.jsonl'), source: 'claude', size: 10, mtimeMs: 0 };
    const sizes: number[] = [];
    for (const youngMb of [undefined, SCAN_WORKER_FREE_YOUNG_MB]) {
      const pool = startScanPool({ workers: 1, workerFile: reporting, inThread, ...(youngMb !== undefined ? { youngMb } : {}) });
      try {
        sizes.push((await pool.run([job])).bytes);
      } finally {
        await pool.close();
      }
    }
    expect(sizes).toEqual([SCAN_WORKER_YOUNG_MB, SCAN_WORKER_FREE_YOUNG_MB]);
  });

  it('is the file scan-pool.ts looks for next to each bundle', () => {
    expect(POOL_WORKER_FILE).toBe(SCAN_WORKER_FILE);
  });

  it('gives the in-thread scan’s candidates, index, digests, stats and partial lists over 240 generated corpora that change during the scan', async () => {
    const pool = startScanPool({ workers: 2, workerFile, inThread });
    fallbacks = 0;
    try {
      const kinds = new Set<string>();
      let redactedTitles = 0;
      for (let seed = 1; seed <= 240; seed++) {
        const specs = corpus(seed);
        for (const s of specs) kinds.add(s.change);
        const alone = await scanOf(join(root, 'c'), join(root, 'data-a'), specs);
        const pooled = await scanOf(join(root, 'c'), join(root, 'data-b'), specs, pool);
        expect(pooled, `seed ${seed}`).toEqual(alone);
        redactedTitles += pooled.entries.filter((c) => c.title.includes('[REDACTED:')).length;
      }
      // Some titles held a key: the workers redacted them as the scan's thread does.
      expect(redactedTitles).toBeGreaterThan(0);
      expect([...kinds].sort()).toEqual(['append', 'directory', 'garbage', 'none', 'truncate', 'vanish']);
      // The workers did every file, and both are still up.
      expect(fallbacks).toBe(0);
      expect(pool.alive).toBe(2);
    } finally {
      await pool.close();
    }
    // 480 cold scans: about 10 s on a quiet machine, several times that on a loaded one.
  }, 180_000);

  it('shares the queue with the scan’s thread when asked (threadShare): the same candidates over 120 changing corpora, and the same results for a long job list', async () => {
    const pool = startScanPool({ workers: 2, workerFile, inThread, threadShare: true });
    fallbacks = 0;
    try {
      for (let seed = 301; seed <= 420; seed++) {
        const specs = corpus(seed);
        expect(await scanOf(join(root, 's'), join(root, 'data-b'), specs, pool), `seed ${seed}`).toEqual(await scanOf(join(root, 's'), join(root, 'data-a'), specs));
      }
      const home = join(root, 's2', 'home');
      const specs = Array.from({ length: 12 }, (_, k) => corpus(500 + k)).flat();
      await writeCorpus(home, specs);
      const jobs: SummarizeJob[] = [];
      for (const s of specs) {
        if (s.bytes.length === 0 || s.path.endsWith('.zst')) continue;
        jobs.push({ path: s.path.replace(/^HOME/, home), source: s.path.includes('.claude') ? 'claude' : 'codex', size: s.bytes.length, mtimeMs: s.mtime * 1000 });
      }
      // A missing file among them: its error is reported in its place, whichever thread read it.
      const many = [...jobs, { ...jobs[0]!, path: join(home, 'gone.jsonl') }, ...jobs, ...jobs, ...jobs, ...jobs, ...jobs, ...jobs, ...jobs];
      const before = pool.shared;
      const run = await pool.run(many);
      expect(run.results).toEqual((await summarizeForScan(nodeImportReader, many)).results);
      // This thread took some tasks (the next queued, as a worker does) and the workers the rest: both are still up.
      expect(pool.shared).toBeGreaterThan(before);
      expect(pool.shared).toBe(fallbacks);
      expect(pool.alive).toBe(2);
    } finally {
      await pool.close();
    }
  }, 180_000);

  it('ends each worker once no task is left for it after retireWhenIdle, not at close; a later run is still answered', async () => {
    const pool = startScanPool({ workers: 2, workerFile, inThread, threadShare: true });
    try {
      const jobs: SummarizeJob[] = Array.from({ length: POOL_TASK_FILES * 6 }, (_, k) => ({ path: join(root, `none-${k}.jsonl`), source: 'claude', size: 10, mtimeMs: 0 }));
      const running = pool.run(jobs);
      pool.retireWhenIdle();
      expect((await running).results).toEqual((await summarizeForScan(nodeImportReader, jobs)).results);
      expect(pool.alive).toBe(0);
      expect((await pool.run(jobs.slice(0, 3))).results).toHaveLength(3);
    } finally {
      await pool.close();
    }
  });

  it('is started by a CLI scan with threadShare, by a scan behind a page (onPartial) without it', async () => {
    const cli = startPoolFor(POOL_MIN_FILES, { env: {} });
    const host = startPoolFor(POOL_MIN_FILES, { env: {}, onPartial: () => undefined });
    try {
      if (availableParallelism() < 2) return expect([cli, host]).toEqual([null, null]);
      const jobs: SummarizeJob[] = Array.from({ length: POOL_TASK_FILES * 6 }, (_, k) => ({ path: join(root, `none-${k}.jsonl`), source: 'claude', size: 10, mtimeMs: 0 }));
      await cli!.run(jobs);
      await host!.run(jobs);
      expect(cli!.shared).toBeGreaterThan(0);
      expect(host!.shared).toBe(0);
    } finally {
      await cli?.close();
      await host?.close();
    }
  });

  it('takes the next queued task into the scan’s thread (threadShare), as a worker would: the scan settles batches in order, so none it parsed waits to the end', async () => {
    // A worker that loads and never says ready: every task is this thread's, one at a time.
    const silent = join(root, 'silent-worker.cjs');
    await writeFile(silent, "setInterval(() => undefined, 1 << 30);");
    const order: string[] = [];
    const pool = startScanPool({ workers: 1, workerFile: silent, threadShare: true, inThread: async (jobs) => (order.push(jobs[0]!.path), { results: jobs.map(() => ({ ok: false as const, code: null, message: 'x' })), bytes: 0 }) });
    try {
      const jobs: SummarizeJob[] = Array.from({ length: POOL_TASK_FILES * 4 }, (_, k) => ({ path: `/p/${k}.jsonl`, source: 'claude', size: 10, mtimeMs: 0 }));
      expect((await pool.run(jobs)).results).toHaveLength(jobs.length);
      expect(order).toEqual([0, 1, 2, 3].map((t) => `/p/${t * POOL_TASK_FILES}.jsonl`));
      expect(pool.shared).toBe(4);
    } finally {
      await pool.close();
    }
  });

  describe('a worker that fails', () => {
    const broken: Record<string, string> = {
      'cannot load': "throw new Error('boom at load');",
      'exits on its first task': "const { parentPort } = require('node:worker_threads'); parentPort.postMessage('baton-scan-worker-ready'); parentPort.on('message', () => process.exit(3));",
      'answers nonsense': "const { parentPort } = require('node:worker_threads'); parentPort.postMessage('baton-scan-worker-ready'); parentPort.on('message', (t) => parentPort.postMessage({ id: t.id, results: [] , bytes: 0 }));",
      'never says ready and exits': 'process.exit(0);',
    };
    for (const [name, source] of Object.entries(broken)) {
      it(`${name}: its tasks are summarized in the scan’s thread, same result`, async () => {
        const file = join(root, `broken-${name.replace(/\W+/g, '-')}.cjs`);
        await writeFile(file, source);
        for (const seed of [3, 17, 41]) {
          const specs = corpus(seed);
          const alone = await scanOf(join(root, 'f'), join(root, 'data-a'), specs);
          const pool = startScanPool({ workers: 2, workerFile: file, inThread });
          fallbacks = 0;
          try {
            expect(await scanOf(join(root, 'f'), join(root, 'data-b'), specs, pool), `seed ${seed}`).toEqual(alone);
            // A worker that failed at load is gone at once; one that fails on a task is gone once it had one.
            expect(pool.alive).toBeLessThan(/load|ready/.test(name) ? 1 : 2);
            expect(fallbacks).toBeGreaterThan(0);
          } finally {
            await pool.close();
          }
        }
      });
    }

    it('is missing: every task runs in the scan’s thread', async () => {
      const pool = startScanPool({ workers: 2, workerFile: join(root, 'no-such-worker.cjs'), inThread });
      try {
        const specs = corpus(5);
        expect(await scanOf(join(root, 'm'), join(root, 'data-b'), specs, pool)).toEqual(await scanOf(join(root, 'm'), join(root, 'data-a'), specs));
        expect(pool.alive).toBe(0);
      } finally {
        await pool.close();
      }
    });

    it('crashes on its second task: the rest goes on in the other worker and in this thread', async () => {
      const file = join(root, 'crash-second.cjs');
      await writeFile(file, `const { parentPort } = require('node:worker_threads'); let n = 0; parentPort.on('message', () => { if (++n === 2) process.exit(7); }); require(${JSON.stringify(workerFile)});`);
      const jobs: SummarizeJob[] = [];
      const specs = Array.from({ length: 12 }, (_, k) => corpus(100 + k)).flat();
      const home = join(root, 'x', 'home');
      await writeCorpus(home, specs);
      for (const s of specs) {
        if (s.bytes.length === 0 || s.path.endsWith('.zst')) continue;
        jobs.push({ path: s.path.replace(/^HOME/, home), source: s.path.includes('.claude') ? 'claude' : 'codex', size: s.bytes.length, mtimeMs: s.mtime * 1000 });
      }
      // Many small tasks, so each worker gets a second one.
      const many = [...jobs, ...jobs, ...jobs, ...jobs, ...jobs, ...jobs];
      const expected = (await summarizeForScan(nodeImportReader, many)).results;
      const pool = startScanPool({ workers: 2, workerFile: file, inThread });
      fallbacks = 0;
      try {
        const run = await pool.run(many);
        expect(run.results).toEqual(expected);
        expect(pool.alive).toBe(0);
        // Each worker finished its first task; only the later ones ran here.
        expect(fallbacks).toBeGreaterThan(0);
        expect(fallbacks).toBeLessThan(Math.ceil(many.length / POOL_TASK_FILES) - 1);
      } finally {
        await pool.close();
      }
    });
  });

  it('runs the TypeScript worker through tsx when no bundle is beside the module (development, tests)', async () => {
    const home = join(root, 't', 'home');
    const specs = corpus(9).filter((s) => s.bytes.length > 0 && !s.path.endsWith('.zst'));
    await writeCorpus(home, specs);
    const jobs: SummarizeJob[] = specs.map((s) => ({ path: s.path.replace(/^HOME/, home), source: s.path.includes('.claude') ? 'claude' : 'codex', size: s.bytes.length, mtimeMs: s.mtime * 1000 }));
    const pool = startScanPool({ workers: 1, inThread });
    try {
      fallbacks = 0;
      const run = await pool.run(jobs);
      expect(run.results).toEqual((await summarizeForScan(nodeImportReader, jobs)).results);
      expect(run.bytes).toBe(specs.reduce((n, s) => n + s.bytes.length, 0));
      expect(fallbacks).toBe(0);
      expect(pool.alive).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('renices only its worker threads when asked (a host scanning behind its page)', async () => {
    const niceOf = async (): Promise<Map<string, number>> => {
      const out = new Map<string, number>();
      for (const tid of await readdir(`/proc/${process.pid}/task`)) {
        const stat = await readFile(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').catch(() => null);
        if (stat) out.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      }
      return out;
    };
    const before = await niceOf();
    const home = join(root, 'n', 'home');
    const specs = corpus(11).filter((s) => s.bytes.length > 0 && !s.path.endsWith('.zst'));
    await writeCorpus(home, specs);
    const jobs: SummarizeJob[] = specs.map((s) => ({ path: s.path.replace(/^HOME/, home), source: s.path.includes('.claude') ? 'claude' : 'codex', size: s.bytes.length, mtimeMs: s.mtime * 1000 }));
    const pool = startScanPool({ workers: 2, workerFile, inThread, nice: 10 });
    try {
      // Two runs of one task each at least: both workers have loaded and reniced themselves.
      await Promise.all([pool.run(jobs), pool.run(jobs)]);
      const after = await niceOf();
      const reniced = [...after].filter(([tid, nice]) => nice === 10 && !before.has(tid));
      expect(reniced.length).toBeGreaterThanOrEqual(1);
      expect(after.get(String(process.pid))).toBe(before.get(String(process.pid)));
    } finally {
      await pool.close();
    }
  });

  it('reports a file it cannot read with its errno code and path, as summarizeFile threw it', async () => {
    const home = join(root, 'e', 'home');
    const path = join(home, 'gone.jsonl');
    await mkdir(home, { recursive: true });
    await writeFile(path, 'x\n');
    const pool = startScanPool({ workers: 1, workerFile, inThread });
    try {
      await unlink(path);
      const run = await pool.run([{ path, source: 'claude', size: 2, mtimeMs: 0 }]);
      expect(run.results).toEqual([{ ok: false, code: 'ENOENT', message: expect.stringContaining('gone.jsonl') }]);
    } finally {
      await pool.close();
    }
  });
});
