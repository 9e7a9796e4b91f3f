/**
 * Issue 15, where a new page's main thread spends its time before the first candidate row: a real
 * `baton serve` on the corpus's warm data directory and real Chromium, sampled by V8's profiler (CDP,
 * 100 µs) from the navigation until the first row is in the page, self time summed per source file
 * and per function through the renderer's source maps (mean of the runs). Sampling is wall-clock:
 * under load the shares hold better than the milliseconds.
 *
 * --reload: the page is loaded once unprofiled, then its reload is profiled (the host warm, as
 * candidates-ui.ts's "page reload" row measures it).
 *
 *   BATON_RENDERER_SOURCEMAP=1 npm run build:app && npx tsx bench/renderer/page-profile.ts --dir=/tmp/c15f/full [--runs=3] [--reload]
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const assets = resolve(import.meta.dirname, '..', '..', 'out', 'renderer', 'assets');
const maps = new Map<string, SourceMap>();
for (const f of readdirSync(assets)) if (f.endsWith('.js.map')) maps.set(f.replace(/\.map$/, ''), readMap(JSON.parse(readFileSync(join(assets, f), 'utf8')) as RawMap));
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
const byFile = new Map<string, number>(); const byFn = new Map<string, number>();
const runs = Number(args.get('runs') ?? 3);
const reload = args.has('reload');
const firstRow = () => document.querySelector('[data-testid="session-item"]') !== null;
if (maps.size === 0) throw new Error('no source maps in out/renderer/assets: build with BATON_RENDERER_SOURCEMAP=1 npm run build:app');
const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium' });
for (let r = 0; r < runs; r++) {
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done) => child.stdout!.once('data', (b: Buffer) => done(b.toString())));
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  const url = (JSON.parse(line) as { url: string }).url;
  if (reload) {
    await page.goto(url);
    await page.waitForFunction(firstRow, undefined, { polling: 'raf', timeout: 60_000 });
  }
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start');
  if (reload) await page.reload();
  else await page.goto(url);
  await page.waitForFunction(firstRow, undefined, { polling: 'raf', timeout: 60_000 });
  const { profile } = await cdp.send('Profiler.stop');
  const dt = new Map<number, number>();
  for (let i = 0; i < profile.samples!.length; i++) dt.set(profile.samples![i]!, (dt.get(profile.samples![i]!) ?? 0) + profile.timeDeltas![i]! / 1000);
  for (const n of profile.nodes) {
    const ms = dt.get(n.id) ?? 0; if (!ms) continue;
    const f = n.callFrame; const base = f.url.split('/').pop()!;
    let key = f.functionName || `(${base})`;
    let file = base || f.functionName;
    const m = maps.get(base);
    if (m && f.lineNumber >= 0) { const o = m(f.lineNumber, f.columnNumber); if (o) { file = o.source.replace(/^.*node_modules\//, 'nm/').replace(/^.*src\/renderer\/src\//, 'r/').replace(/^.*src\/shared\//, 'shared/'); key = `${o.name ?? f.functionName} ${file}:${o.line}`; } }
    byFile.set(file, (byFile.get(file) ?? 0) + ms / runs); byFn.set(key, (byFn.get(key) ?? 0) + ms / runs);
  }
  await page.close(); child.kill('SIGTERM'); await new Promise((res) => child.once('exit', res));
}
await browser.close();
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(7)}  ${k}`).join('\n');
console.log('by file (self ms, mean of runs)\n' + top(byFile, 40) + '\n\nby function\n' + top(byFn, 40));

// A source map's lookup (v3 mappings, base64 VLQ), enough for this: generated line and column (0-based) → source, line, name.
interface RawMap { sources: string[]; names: string[]; mappings: string }
type SourceMap = (line: number, column: number) => { source: string; line: number; name: string | undefined } | undefined;
function readMap(raw: RawMap): SourceMap {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lines: number[][][] = [];
  let source = 0, origLine = 0, name = 0;
  for (const text of raw.mappings.split(';')) {
    const segments: number[][] = [];
    let column = 0;
    for (const segment of text.split(',')) {
      if (segment === '') continue;
      const values: number[] = [];
      let value = 0, shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else { values.push(value & 1 ? -(value >>> 1) : value >>> 1); value = 0; shift = 0; }
      }
      column += values[0]!;
      if (values.length >= 4) { source += values[1]!; origLine += values[2]!; }
      if (values.length >= 5) name += values[4]!;
      segments.push(values.length >= 4 ? [column, source, origLine, values.length >= 5 ? name : -1] : [column, -1, 0, -1]);
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line] ?? [];
    let found: number[] | undefined;
    for (const s of segments) { if (s[0]! > column) break; found = s; }
    if (found === undefined || found[1]! < 0) return undefined;
    return { source: raw.sources[found[1]!]!, line: found[2]! + 1, name: found[3]! >= 0 ? raw.names[found[3]!] : undefined };
  };
}
