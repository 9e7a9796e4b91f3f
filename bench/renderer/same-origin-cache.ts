/**
 * Issue 15, what a browser's cache would give a new host: `baton serve` picks a free port at every
 * start (`--port` defaults to 0), so every new host is a new origin and its page is a first visit
 * (no HTTP cache, no V8 code cache for its 387 KB entry). This starts each new host on one fixed
 * port and opens its page in one of two browser contexts, in turn: a fresh context per host (what
 * `candidates-ui.ts` measures) or one context kept across hosts (a person's browser reopening the
 * same address). ms from the spawn until the total reads every candidate and a row is in the DOM.
 *
 *   npm run build && npx tsx bench/renderer/same-origin-cache.ts --dir=/tmp/c15f/full [--runs=6] [--port=47615] [--expect=20000]
 */
import { chromium, type BrowserContext } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 6);
const port = args.get('port') ?? '47615';
const expected = Number(args.get('expect') ?? 20_000);
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };

async function once(context: BrowserContext): Promise<number> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [BATON, 'serve', '--json', `--port=${port}`], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((done, fail) => {
      child.stdout!.once('data', (d: Buffer) => done(d.toString()));
      child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
    });
    const page = await context.newPage();
    // The token rides in the address's fragment or query: the same origin, a new token each start.
    await page.goto((JSON.parse(line) as { url: string }).url);
    await page.waitForFunction(
      (n) => Number((document.querySelector('[data-testid="session-total"]')?.textContent ?? '').replace(/[^0-9]/g, '')) >= n && document.querySelector('[data-testid="session-item"]') !== null,
      expected,
      { timeout: 120_000, polling: 'raf' },
    );
    const ms = performance.now() - t0;
    await page.close();
    return ms;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`load average ${await load()}`);
const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
const kept = await browser.newContext();
const fresh: number[] = [];
const warm: number[] = [];
try {
  // One host first in the kept context, so its cache holds the page before the timed runs.
  await once(kept);
  for (let i = 0; i < runs; i++) {
    for (const which of i % 2 === 0 ? ['fresh', 'kept'] : ['kept', 'fresh']) {
      if (which === 'kept') warm.push(await once(kept));
      else {
        const context = await browser.newContext();
        fresh.push(await once(context));
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
console.table([
  { context: 'fresh per host (a first visit)', median: Math.round(median(fresh)), min: Math.round(Math.min(...fresh)) },
  { context: 'kept across hosts (same origin, cache warm)', median: Math.round(median(warm)), min: Math.round(Math.min(...warm)) },
]);
console.log(`load average at the end: ${await load()}`);
