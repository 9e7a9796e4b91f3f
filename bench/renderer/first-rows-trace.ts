/**
 * Issue 15, where the page's own time goes before the first candidate row: a real `baton serve`
 * on the corpus's warm data directory and real Chromium, traced (Chromium's trace events): the
 * renderer main thread's top-level tasks between the navigation and the first row painted,
 * summed by kind (script evaluation, compile, parse, layout, paint …), with the longest tasks
 * listed. CPU of the main thread, so the load inflates it much less than the wall times.
 *
 *   npm run build && npx tsx bench/renderer/first-rows-trace.ts --dir=/tmp/c15f/full [--reload] [--bin=other/bin/baton.js] [--out=/tmp/trace.json]
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const out = args.get('out') ?? join(dir, 'run', 'first-rows-trace.json');
const reload = args.has('reload');
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number; pid: number; args?: { data?: { url?: string; functionName?: string; type?: string } } }

async function main(): Promise<void> {
  await mkdir(join(dir, 'run'), { recursive: true, mode: 0o700 });
  const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
  try {
    const line = await new Promise<string>((done) => child.stdout!.once('data', (b: Buffer) => done(b.toString())));
    const page = await browser.newPage();
    const url = (JSON.parse(line) as { url: string }).url;
    const firstRowShown = () => page.waitForFunction(() => document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf', timeout: 60_000 });
    // --reload: the page is opened first, and its reload is what is traced.
    if (reload) {
      await page.goto(url);
      await firstRowShown();
    }
    await browser.startTracing(page, { path: out, categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'] });
    const t0 = performance.now();
    if (reload) await page.reload();
    else await page.goto(url);
    await firstRowShown();
    const firstRow = performance.now() - t0;
    // Bytes of each script and style sheet over the wire (0: from the browser's cache).
    const transfers = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => `${e.name.split('/').pop()} ${(e as PerformanceResourceTiming).transferSize} B`));
    console.log(`transferred: ${transfers.join(', ')}`);
    await browser.stopTracing();
    const events = (JSON.parse(await readFile(out, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    // The page's renderer main thread: the one that ran the navigation's ParseHTML.
    const parse = events.find((e) => e.name === 'ParseHTML');
    if (!parse) throw new Error('no ParseHTML event in the trace');
    const main = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.dur !== undefined);
    const start = Math.min(...main.map((e) => e.ts));
    const tops = main.filter((e) => e.name === 'RunTask');
    const kinds = new Map<string, number>();
    for (const e of main) if (['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'ParseHTML', 'Layout', 'UpdateLayoutTree', 'Paint', 'TimerFire', 'EventDispatch', 'v8.parseOnBackground', 'CompileScript', 'MajorGC', 'MinorGC', 'V8.GCScavenger', 'ParseAuthorStyleSheet', 'PrePaint', 'Layerize'].includes(e.name)) kinds.set(e.name, (kinds.get(e.name) ?? 0) + e.dur!);
    console.log(`first row painted ${Math.round(firstRow)} ms after the navigation began; main-thread tasks ${Math.round(tops.reduce((n, e) => n + e.dur!, 0) / 1000)} ms`);
    // Thread time (tdur): the main thread's CPU in its tasks, which a loaded machine inflates much less than their wall time.
    const cpuOf = (name: string) => Math.round(main.filter((e) => e.name === name).reduce((n, e) => n + (e.tdur ?? 0), 0) / 1000);
    console.log(`main-thread CPU: tasks ${cpuOf('RunTask')} ms, Layout ${cpuOf('Layout')} ms (${main.filter((e) => e.name === 'Layout' && e.dur! > 1000).length} layouts over 1 ms), FunctionCall ${cpuOf('FunctionCall')} ms, pagehide ${Math.round(main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'pagehide').reduce((n, e) => n + (e.tdur ?? 0), 0) / 1000)} ms`);
    // Baseline, same run: Chromium's own floor, a static page holding one row, in a new page.
    const blank = await browser.newPage();
    const b0 = performance.now();
    await blank.goto('data:text/html,<!doctype html><div data-testid="session-item">row</div>');
    await blank.waitForFunction(() => document.querySelector('[data-testid="session-item"]') !== null, undefined, { polling: 'raf' });
    console.log(`baseline: a static page's row painted ${Math.round(performance.now() - b0)} ms after its navigation began`);
    await blank.close();
    console.table([...kinds].sort((a, b) => b[1] - a[1]).map(([kind, us]) => ({ kind, 'ms (nested kinds overlap)': Math.round(us / 100) / 10 })));
    const longest = [...tops].sort((a, b) => b.dur! - a.dur!).slice(0, 8);
    console.table(longest.map((t) => {
      const inner = main.filter((e) => e.ts >= t.ts && e.ts < t.ts + t.dur! && e !== t && e.name !== 'RunTask').sort((a, b) => b.dur! - a.dur!)[0];
      return { 'at ms': Math.round((t.ts - start) / 1000), 'task ms': Math.round(t.dur! / 100) / 10, biggest: inner ? `${inner.name} ${inner.args?.data?.url?.split('/').pop() ?? inner.args?.data?.functionName ?? ''}`.trim() : '' };
    }));
    await page.close();
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}; trace: ${out}`);
}

await main();
