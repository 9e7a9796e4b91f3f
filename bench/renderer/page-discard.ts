/**
 * Issue 15, a reload's first step: what the old page costs as it is discarded. A real `baton serve`
 * on the corpus's warm data directory and real Chromium; once the first row is painted, a
 * `pagehide` (not persisted, as a reload fires it) is dispatched in the page and timed to the end
 * of its microtasks (the next task): the time the next page's navigation waits for the old one.
 * Also lists the page's console errors (a CSP violation is one). Medians of --runs pages per build;
 * --before=other/bin/baton.js runs that build too, alternately (each serves its own out/renderer).
 *
 *   npm run build && npx tsx bench/renderer/page-discard.ts --dir=/tmp/c15f/full [--runs=5] [--before=other/bin/baton.js] [--before-data=data-before]
 */
import { chromium, type Browser } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 5);
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BEFORE = args.has('before') ? resolve(args.get('before')!) : undefined;
const BEFORE_DATA = args.has('before-data') ? join(dir, args.get('before-data')!) : undefined;
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };

async function discard(browser: Browser, bin: string): Promise<{ ms: number; errors: string[] }> {
  const dataDir = bin === BEFORE && BEFORE_DATA ? BEFORE_DATA : env.BATON_HOME;
  const child = spawn(process.execPath, [bin, 'serve', '--json'], { env: { ...env, BATON_HOME: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((done, fail) => {
      child.stdout.once('data', (d: Buffer) => done(d.toString()));
      child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text().slice(0, 120)));
    await page.goto((JSON.parse(line) as { url: string }).url);
    await page.waitForFunction(() => document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf', timeout: 60_000 });
    const ms = await page.evaluate(() => {
      const t = performance.now();
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      return new Promise<number>((done) => setTimeout(() => done(performance.now() - t), 0));
    });
    await page.close();
    return { ms, errors };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const builds = BEFORE ? { before: BEFORE, 'this build': BATON } : { 'this build': BATON };
const results = new Map<string, { ms: number[]; errors: Set<string> }>(Object.keys(builds).map((name) => [name, { ms: [], errors: new Set() }]));
const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
try {
  for (let run = 0; run < runs; run++) {
    for (const [name, bin] of Object.entries(builds)) {
      const { ms, errors } = await discard(browser, bin);
      results.get(name)!.ms.push(ms);
      for (const error of errors) results.get(name)!.errors.add(error);
    }
  }
} finally {
  await browser.close();
}
console.log(`${runs} pages per build; load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
console.table(Object.fromEntries([...results].map(([name, r]) => [name, { 'pagehide to the next task, median ms': Number(median(r.ms).toFixed(1)), 'min': Number(Math.min(...r.ms).toFixed(1)), 'max': Number(Math.max(...r.ms).toFixed(1)), 'console errors': [...r.errors].join(' | ') || 'none' }])));
