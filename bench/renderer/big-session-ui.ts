/**
 * Issue 20, the UI first screen of a 1 GB session: a real `baton serve` on a data directory holding
 * one session with a ~1 GB log (written once through the store's own append path, then reused) and
 * a 100-message session (the baseline, same host, same run), opened in real Chromium through
 * Playwright at `#session=<id>`. Measured until the session's last message is painted:
 *   - new host: from spawning `baton serve` (its start included) to the last message painted
 *   - host warm: a new page opened on the running host once it is idle (its background work after
 *     start — loading the search index, 3 s after start — done; how long that took is printed)
 *   - reload: the same page reloaded
 * For each open, the bytes the host process read (/proc/<pid>/io rchar) show that the log is paged,
 * never read whole. Needs `npm run build` (out/renderer, dist/cli).
 *
 *   npx tsx bench/renderer/big-session-ui.ts [--dir=/tmp/baton-big-ui] [--mb=1000] [--runs=3] [--keep]
 *
 * The corpus takes ~1.4 GB of disk for --mb=1000; it is removed at the end unless --keep.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openStore } from '../../src/core/store/index.js';
import { createSearchService } from '../../src/core/search/search-service.js';
import type { MessageInput } from '../../src/shared/message.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-big-ui');
const targetBytes = Number(args.get('mb') ?? 1000) * 1e6;
const runs = Number(args.get('runs') ?? 3);
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const dataDir = join(dir, 'data');
const env = { ...process.env, BATON_HOME: dataDir, HOME: join(dir, 'home'), XDG_RUNTIME_DIR: join(dir, 'run') };
/** Messages appended per store.append call while the corpus is written (one fsync each). */
const APPEND_BATCH = 20_000;

interface Corpus {
  big: { id: string; lastSeq: number; logBytes: number };
  small: { id: string; lastSeq: number; logBytes: number };
}

const message = (i: number): MessageInput => ({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(9)}` });

/** The two sessions, written once (through store.append, the path a live session grows by) and reused. */
async function corpus(): Promise<Corpus> {
  const marker = join(dir, 'corpus.json');
  if (existsSync(marker)) return JSON.parse(await readFile(marker, 'utf8')) as Corpus;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const store = await openStore(dataDir);
  const base = { cwd: dir, gitRoot: null, branch: null, source: { tool: 'claude' as const }, holder: 'terminal' };
  const small = await store.createSession({ ...base, title: 'small (100 messages)' }, Array.from({ length: 100 }, (_, i) => message(i)));
  const big = await store.createSession({ ...base, title: 'big (1 GB)' }, []);
  const log = join(store.sessionDir(big.id), 'messages.jsonl');
  let written = 0;
  const started = performance.now();
  while ((await stat(log)).size < targetBytes) {
    await store.append(big.id, 1, Array.from({ length: APPEND_BATCH }, (_, j) => message(written + j)));
    written += APPEND_BATCH;
    if (written % 500_000 === 0) console.log(`  corpus: ${written.toLocaleString('en')} messages, ${((await stat(log)).size / 1e6).toFixed(0)} MB, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await store.close();
  const c: Corpus = {
    big: { id: big.id, lastSeq: written - 1, logBytes: (await stat(log)).size },
    small: { id: small.id, lastSeq: 99, logBytes: (await stat(join(dataDir, 'sessions', small.id, 'messages.jsonl'))).size },
  };
  await writeFile(marker, JSON.stringify(c));
  return c;
}

async function startHost(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (d: Buffer) => done(d.toString()));
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Bytes the process has read so far (read() and pread() calls, page cache included). */
async function bytesRead(child: ChildProcess): Promise<number> {
  const m = /rchar: (\d+)/.exec(await readFile(`/proc/${child.pid}/io`, 'utf8'));
  return Number(m?.[1] ?? NaN);
}

/** CPU time (user + system) of a process so far, ms (/proc/<pid>/stat, 100 ticks a second). */
async function cpuMs(child: ChildProcess): Promise<number> {
  const fields = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Until the host's CPU time grows by less than 30 ms in half a second (at most a minute); ms since `t0`. */
async function untilIdle(child: ChildProcess, t0: number): Promise<number> {
  let last = await cpuMs(child);
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await cpuMs(child);
    if (now - last < 30 && performance.now() - t0 > 4_000) break;
    last = now;
  }
  return performance.now() - t0;
}

/** ms since `t0` until the message with seq `lastSeq` is in the page and a frame has been painted after it. */
async function untilLastPainted(page: Page, lastSeq: number, t0: number): Promise<number> {
  await page.waitForFunction((seq) => document.querySelector(`[data-testid="message"][data-seq="${seq}"]`) !== null, lastSeq, { timeout: 120_000, polling: 'raf' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
  return performance.now() - t0;
}

interface Open {
  ms: number;
  readMb: number;
}

/** Opens `session` in a new page on the host; with `reload`, also the same page reloaded. */
async function open(browser: Browser, host: { child: ChildProcess; url: string }, session: Corpus['big'], t0?: number): Promise<{ first: Open; reload: Open }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const read0 = await bytesRead(host.child);
    const start = t0 ?? performance.now();
    await page.goto(`${host.url}#session=${session.id}`);
    const first = { ms: await untilLastPainted(page, session.lastSeq, start), readMb: ((await bytesRead(host.child)) - read0) / 1e6 };
    const read1 = await bytesRead(host.child);
    const t1 = performance.now();
    await page.reload();
    const reload = { ms: await untilLastPainted(page, session.lastSeq, t1), readMb: ((await bytesRead(host.child)) - read1) / 1e6 };
    return { first, reload };
  } finally {
    await page.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const c = await corpus();
  // The search index covers every message: a host indexes a new session once, in the background
  // (saved as it goes); timed here, then the opens below measure the host in its steady state.
  {
    const store = await openStore(dataDir);
    const search = await createSearchService({ store, dataDir });
    const started = performance.now();
    await search.syncAll();
    await search.close();
    await store.close();
    console.log(`search index brought up to date in ${((performance.now() - started) / 1000).toFixed(1)} s (once per new session, in the host's background)`);
  }
  await mkdir(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  await mkdir(env.HOME, { recursive: true });
  console.log(`corpus: big ${c.big.id} ${(c.big.logBytes / 1e6).toFixed(0)} MB log, ${(c.big.lastSeq + 1).toLocaleString('en')} messages; small ${c.small.id} ${(c.small.logBytes / 1e3).toFixed(0)} kB`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const rows: Record<'small' | 'big', { cold: Open[]; warm: Open[]; reload: Open[] }> = { small: { cold: [], warm: [], reload: [] }, big: { cold: [], warm: [], reload: [] } };
  const idle: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      // Baseline and big session alternate, each from a new host, so load moves both alike.
      for (const which of ['small', 'big'] as const) {
        const t0 = performance.now();
        const host = await startHost();
        try {
          const cold = await open(browser, host, c[which], t0);
          rows[which].cold.push(cold.first);
          idle.push(await untilIdle(host.child, t0));
          const warm = await open(browser, host, c[which]);
          rows[which].warm.push(warm.first);
          rows[which].reload.push(warm.reload);
        } finally {
          await stop(host.child);
        }
      }
    }
  } finally {
    await browser.close();
  }
  const table = (['small', 'big'] as const).flatMap((which) =>
    (['cold', 'warm', 'reload'] as const).map((kind) => ({
      session: which === 'small' ? 'baseline: 100 messages' : `${(c.big.logBytes / 1e6).toFixed(0)} MB, ${(c.big.lastSeq + 1).toLocaleString('en')} messages`,
      open: { cold: 'new host (from spawn)', warm: 'new page, host idle', reload: 'page reload' }[kind],
      runs,
      'median ms': Math.round(median(rows[which][kind].map((o) => o.ms))),
      'max ms': Math.round(Math.max(...rows[which][kind].map((o) => o.ms))),
      'host read MB (median)': Number(median(rows[which][kind].map((o) => o.readMb)).toFixed(2)),
    })),
  );
  console.table(table);
  console.log(`host idle after its start (search index loaded): median ${(median(idle) / 1000).toFixed(1)} s, max ${(Math.max(...idle) / 1000).toFixed(1)} s`);
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  if (!args.has('keep')) await rm(dir, { recursive: true, force: true });
}

await main();
