/**
 * Issue 15, where a new page waits for its first row, two builds alternated run for run: a real
 * `baton serve` on the corpus's warm data directory and real Chromium, with marks taken inside the
 * page (an init script; ms since the navigation began): the WebSocket created and open, the first
 * screen's `agents:list` answer received (the largest frame), the app's first render in the DOM
 * (the shell), the first candidate row in the DOM (the same as the shell's: the rows came in the first render).
 * Per build, medians of: those marks and the bench's own navigation → row seen (raf polling).
 *
 *   npm run build && npx tsx bench/renderer/page-marks-ab.ts --dir=/tmp/c15f/full --before=/tmp/before/bin/baton.js [--after=other/bin/baton.js] [--runs=8]
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inTurn } from './in-turn.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 8);
if (!args.has('before')) throw new Error('--before=<other build>/bin/baton.js is required');
// --after: another build in place of this one (three builds compared pairwise).
const builds = [resolve(args.get('before')!), resolve(args.get('after') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'))];
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
const MARKS = ['socket created', 'socket open', 'first answer', 'shell in DOM', 'row in DOM', 'row seen by the bench'] as const;

// A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
const PAGE_MARKS = `
  const marks = (window.__benchMarks = {});
  const mark = (name) => { marks[name] ??= performance.now(); };
  const PageSocket = window.WebSocket;
  window.WebSocket = class extends PageSocket {
    constructor(url, protocols) {
      super(url, protocols);
      mark('socket created');
      this.addEventListener('open', () => mark('socket open'));
      this.addEventListener('message', (event) => { if (String(event.data).length > 10000) mark('first answer'); });
    }
  };
  new MutationObserver((_, observer) => {
    if (document.getElementById('root')?.firstElementChild) mark('shell in DOM');
    if (document.querySelector('[data-testid="session-item"]') === null) return;
    mark('row in DOM');
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true });
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
  const results = new Map(builds.map((bin) => [bin, new Map(MARKS.map((m) => [m, [] as number[]]))]));
  try {
    for (let run = 0; run < runs; run++) {
      for (const bin of inTurn(builds, run)) {
        const child = spawn(process.execPath, [bin, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
        try {
          const line = await new Promise<string>((done) => child.stdout!.once('data', (b: Buffer) => done(b.toString())));
          const page = await browser.newPage();
          await page.addInitScript({ content: PAGE_MARKS });
          const t0 = performance.now();
          await page.goto((JSON.parse(line) as { url: string }).url);
          await page.waitForFunction(() => document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf', timeout: 60_000 });
          const seen = performance.now() - t0;
          const marks = (await page.evaluate('window.__benchMarks')) as Record<string, number>;
          const into = results.get(bin)!;
          for (const m of MARKS) into.get(m)!.push(m === 'row seen by the bench' ? seen : (marks[m] ?? NaN));
          await page.close();
        } finally {
          child.kill('SIGTERM');
          await new Promise((done) => child.once('exit', done));
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`medians of ${runs} runs per build, ms since the navigation began`);
  console.table(MARKS.map((m) => ({ mark: m, before: Math.round(median(results.get(builds[0]!)!.get(m)!)), 'this build': Math.round(median(results.get(builds[1]!)!.get(m)!)) })));
  // Runs whose rows were drawn by the app's first render (no render of an empty list before them).
  const inFirst = (bin: string) => results.get(bin)!.get('row in DOM')!.filter((row, i) => row === results.get(bin)!.get('shell in DOM')![i]).length;
  console.log(`rows in the first render: before ${inFirst(builds[0]!)} of ${runs}, this build ${inFirst(builds[1]!)} of ${runs}`);
  console.log(`before: ${builds[0]}\nthis build: ${builds[1]}`);
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

await main();
