/**
 * Issue 15, where a fresh data directory's first second goes: a real `baton serve` on an empty
 * BATON_HOME over the candidates corpus, and real Chromium. One timeline per run (ms since the
 * host was spawned): the address printed, each page request and its end, the WebSocket's
 * requests and answers (agents:list carries the first rows), the progress line, the first row
 * painted; then the host's own phase marks (BATON_PHASE_TRACE, ms since it started: scan-stats,
 * scan-first-batch …). The scan's workers in-thread (--workers=0) give the baseline of one run.
 *
 * --warm: the corpus's own data directory (its caches warm: the "new host, warm cache" row of
 * candidates-ui.ts) instead of an empty one; the directory is kept.
 *
 *   npm run build && npx tsx bench/renderer/fresh-timeline.ts --dir=/tmp/c15f/full [--workers=2] [--runs=1] [--warm]
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const workers = args.get('workers') ?? '2';
const runs = Number(args.get('runs') ?? 1);
const expected = Number(args.get('expect') ?? 20_000);
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');

async function once(browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<void> {
  const warm = args.has('warm');
  const traceDir = await mkdtemp(join(dir, 'trace-'));
  const dataDir = warm ? join(dir, 'data') : await mkdtemp(join(dir, 'fresh-data-'));
  const trace = join(traceDir, 'host-trace.jsonl');
  const events: Array<[number, string]> = [];
  const t0 = performance.now();
  const mark = (what: string) => events.push([Math.round(performance.now() - t0), what]);
  const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: dataDir, XDG_RUNTIME_DIR: join(dir, 'run'), BATON_PHASE_TRACE: trace, BATON_SCAN_WORKERS: workers };
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((done) => child.stdout!.once('data', (b: Buffer) => done(b.toString())));
    mark('host address printed');
    const page = await browser.newPage();
    const short = (url: string) => url.split('/').pop()!.split('?')[0]!.slice(0, 40) || '/';
    page.on('request', (r) => mark(`request ${short(r.url())}`));
    page.on('requestfinished', (r) => mark(`loaded ${short(r.url())}`));
    page.on('websocket', (ws) => {
      mark('websocket open');
      ws.on('framesent', (f) => {
        const m = /"channel":"([^"]+)"/.exec(String(f.payload));
        if (m) mark(`asked ${m[1]}`);
      });
      ws.on('framereceived', (f) => {
        const text = String(f.payload);
        if (!text.includes('"kind":"event"')) mark(`answer ${/"id":(\d+)/.exec(text)?.[1] ?? '?'} (${text.length} B)`);
      });
    });
    // Checked in the page each frame, both in the same check: whether the total reads every
    // candidate in the frame the first row appears, or a later message brings it (issue 15).
    // A string, not a function: tsx wraps named inner functions in a `__name` helper the page lacks.
    await page.addInitScript(`(() => {
      const n = ${expected};
      const marks = (window.__listed = {});
      const check = () => {
        const now = performance.timeOrigin + performance.now();
        if (marks.row === undefined && document.querySelector('[data-testid="session-item"]') !== null) marks.row = now;
        const total = document.querySelector('[data-testid="session-total"]')?.textContent;
        if (total !== undefined && marks.total === undefined) marks.total = now;
        if (marks.counted === undefined && Number((total ?? '').replace(/[^0-9]/g, '')) >= n) marks.counted = now;
        if (marks.row === undefined || marks.counted === undefined) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })();`);
    await page.goto((JSON.parse(line) as { url: string }).url);
    mark('load event');
    await page.waitForFunction(() => /Reading .* sessions/.test(document.querySelector('[data-testid="scan-status"]')?.textContent ?? '') || document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf', timeout: 60_000 });
    mark('progress shown');
    await page.waitForFunction(() => document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf', timeout: 60_000 });
    mark('first row painted');
    await page.waitForFunction((n) => Number((document.querySelector('[data-testid="session-total"]')?.textContent ?? '').replace(/[^0-9]/g, '')) >= n, expected, { polling: 'raf', timeout: 120_000 });
    mark(`all ${expected} counted`);
    // The page's own frames, on the wall clock shared with this process (epoch ms).
    const inPage = await page.evaluate(() => (window as unknown as { __listed: Record<string, number> }).__listed);
    const fromSpawn = (epoch: number | undefined) => (epoch === undefined ? NaN : Math.round(epoch - (performance.timeOrigin + t0)));
    events.push([fromSpawn(inPage.total), 'in-page frame: a total shown'], [fromSpawn(inPage.row), 'in-page frame: first row'], [fromSpawn(inPage.counted), `in-page frame: ${expected} counted`]);
    await page.close();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  console.table(events.map(([ms, what]) => ({ ms, what })));
  const marks = (JSON.parse((await readFile(trace, 'utf8').catch(() => '{"marks":{}}')).trim().split('\n').pop()!) as { marks: Record<string, number> }).marks;
  console.log(`host phases (ms since the host started): ${JSON.stringify(marks)}`);
  await rm(traceDir, { recursive: true, force: true });
  if (!warm) await rm(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  await mkdir(join(dir, 'run'), { recursive: true, mode: 0o700 });
  const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  console.log(`scan workers: ${workers}; load average ${await load()}`);
  const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
  try {
    for (let i = 0; i < runs; i++) await once(browser);
  } finally {
    await browser.close();
  }
  console.log(`load average at the end: ${await load()}`);
}

await main();
