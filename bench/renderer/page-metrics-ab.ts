/**
 * Issue 15, the page's own cost on a new host with a warm cache, two builds alternated run for run:
 * a real `baton serve` on the corpus's data directory and real Chromium. Per build, medians of:
 * the host's address printed (from the spawn), navigation → every candidate counted and a row
 * painted, and Chromium's own counters for the page (CDP Performance.getMetrics): TaskDuration
 * (the renderer main thread's tasks) and ScriptDuration (JavaScript in them), and the page's
 * renderer process's CPU time (SystemInfo.getProcessInfo; the process is the new context's own, its
 * other threads included). The counters are CPU-like: on a loaded machine they swell much less than
 * the wall times do, the process CPU least.
 *
 *   npm run build && npx tsx bench/renderer/page-metrics-ab.ts --dir=/tmp/c15f/full --before=/tmp/before/bin/baton.js [--after=other/bin/baton.js] [--runs=8] [--expect=20000]
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inTurn } from './in-turn.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 8);
const expected = Number(args.get('expect') ?? 20_000);
if (!args.has('before')) throw new Error('--before=<other build>/bin/baton.js is required');
// --after: another build in place of this one (three builds compared pairwise).
const builds = [resolve(args.get('before')!), resolve(args.get('after') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'))];
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
const MEASURES = ['address printed', 'navigation → row', 'page tasks', 'page script', 'renderer CPU'] as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
  const results = new Map(builds.map((bin) => [bin, [] as number[][]]));
  // The page's renderer process's CPU time (Chromium's SystemInfo): user + system, not stretched by
  // waiting for a core as the wall times and the task counters are on a loaded machine.
  const system = await browser.newBrowserCDPSession();
  const rendererCpu = async () => new Map((await system.send('SystemInfo.getProcessInfo')).processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime * 1000]));
  try {
    for (let i = 0; i < runs; i++) {
      for (const bin of inTurn(builds, i)) {
        const t0 = performance.now();
        const child = spawn(process.execPath, [bin, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
        try {
          const line = await new Promise<string>((done) => child.stdout!.once('data', (b: Buffer) => done(b.toString())));
          const address = performance.now() - t0;
          const rendererBefore = await rendererCpu();
          const page = await browser.newPage();
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('Performance.enable');
          const t1 = performance.now();
          await page.goto((JSON.parse(line) as { url: string }).url);
          await page.waitForFunction(
            (n) => Number((document.querySelector('[data-testid="session-total"]')?.textContent ?? '').replace(/[^0-9]/g, '')) >= n && document.querySelector('[data-testid="session-item"]') !== null,
            expected,
            { polling: 'raf', timeout: 60_000 },
          );
          const row = performance.now() - t1;
          const metrics = new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
          // The renderers this page started (a new context has its own); an earlier one's growth, if it was reused.
          const pageCpu = [...(await rendererCpu())].reduce((sum, [id, cpu]) => sum + cpu - (rendererBefore.get(id) ?? 0), 0);
          results.get(bin)!.push([address, row, metrics.get('TaskDuration')! * 1000, metrics.get('ScriptDuration')! * 1000, pageCpu]);
          await page.close();
        } finally {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`medians of ${runs} runs per build, ms`);
  console.table(MEASURES.map((measure, j) => ({ measure, before: Math.round(median(results.get(builds[0]!)!.map((r) => r[j]!))), 'this build': Math.round(median(results.get(builds[1]!)!.map((r) => r[j]!))) })));
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

await main();
