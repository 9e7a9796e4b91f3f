/**
 * The Changes tab renders the whole changed-file list (no windowing). How long does it take to
 * render 1,000 files in a real browser, against 1,000 plain <li> with the same paths, in the same
 * page and run? Real Chromium (/usr/bin/chromium through Playwright) and React's production build:
 * the page is bundled by Vite into bench/.data/ and served from 127.0.0.1. Each timing covers
 * React's render + commit and the layout that follows (offsetHeight is read before the clock stops).
 * (happy-dom was tried first: it measured happy-dom, not React, and ran out of memory at 1,000 rows.)
 * Run: npx tsx bench/renderer/diff-file-list.ts
 */
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';
import { printTable, summarize } from '../stats.js';

const RUNS = 40;
const WARMUP = 5;
const SIZES = [100, 1_000];
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', '.data', 'diff-file-list');

/** The page: builds a file list like a monorepo change set and times three renders per run. */
const ENTRY = `
import { createElement as h } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { DiffFileList } from ${JSON.stringify(join(ROOT, 'src/renderer/src/features/workspace/DiffFileList.tsx'))};
import ${JSON.stringify(join(ROOT, 'src/renderer/src/styles/index.css'))};

const STATUSES = ['modified', 'modified', 'modified', 'added', 'untracked', 'deleted', 'renamed'];
function list(count) {
  const files = Array.from({ length: count }, (_, i) => {
    const status = STATUSES[i % STATUSES.length];
    const binary = i % 50 === 0;
    return {
      path: 'packages/pkg-' + (i % 17) + '/src/module-' + Math.floor(i / 17) + '/file-' + i + '.ts',
      ...(status === 'renamed' ? { oldPath: 'packages/pkg-' + (i % 17) + '/src/old-' + i + '.ts' } : {}),
      status, staged: false, unstaged: true, sha256: status === 'deleted' ? null : 'a'.repeat(64), binary,
      size: status === 'deleted' ? null : 1000 + i, oldMode: '100644', newMode: '100644', modeChanged: false,
      additions: binary ? null : i % 40, deletions: binary ? null : i % 13,
    };
  });
  return { files, counts: {}, total: files.length, additions: 0, deletions: 0 };
}

function time(element, rows) {
  const container = document.createElement('div');
  container.style.width = '300px';
  document.body.append(container);
  const root = createRoot(container);
  const start = performance.now();
  flushSync(() => root.render(element));
  void container.offsetHeight;
  const elapsed = performance.now() - start;
  const rendered = container.querySelectorAll('li').length;
  if (rendered < rows) throw new Error('expected ' + rows + ' rows, rendered ' + rendered);
  root.unmount();
  container.remove();
  return elapsed;
}

window.runBench = (size, runs, warmup) => {
  const value = list(size);
  const visible = value.files.filter((f) => f.path.includes('pkg-3/') && f.path.includes('module')).length;
  const cases = {
    baseline: [() => h('ul', null, value.files.map((f) => h('li', { key: f.path }, f.path))), size],
    list: [() => h(DiffFileList, { list: value, selected: value.files[0].path, onSelect() {}, query: '', onQuery() {} }), size],
    filtered: [() => h(DiffFileList, { list: value, selected: null, onSelect() {}, query: 'pkg-3/ module', onQuery() {} }), visible],
  };
  const out = { baseline: [], list: [], filtered: [] };
  for (let i = 0; i < warmup + runs; i++) {
    // Interleaved, so a slow moment of a busy machine hits every case alike.
    for (const [name, [make, rows]] of Object.entries(cases)) {
      const ms = time(make(), rows);
      if (i >= warmup) out[name].push(ms);
    }
  }
  return out;
};
`;

async function bundle(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  await mkdir(join(OUT, 'src'), { recursive: true });
  await writeFile(join(OUT, 'src', 'entry.tsx'), ENTRY);
  await writeFile(join(OUT, 'src', 'index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="./entry.tsx"></script></body>');
  await build({
    root: join(OUT, 'src'),
    base: './',
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    build: { outDir: join(OUT, 'dist'), emptyOutDir: true, minify: true },
  });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

async function serve(): Promise<{ url: string; close: () => Promise<void> }> {
  const dist = join(OUT, 'dist');
  const server = createServer((request, response) => {
    const path = join(dist, new URL(request.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html'));
    if (!path.startsWith(dist) || !existsSync(path)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

if (!existsSync(CHROMIUM)) {
  console.log(`skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  process.exit(0);
}
await bundle();
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => 'runBench' in window);
  const rows: Record<string, string | number>[] = [];
  for (const size of SIZES) {
    const result = await page.evaluate(([n, runs, warmup]) => (window as unknown as { runBench: (a: number, b: number, c: number) => Record<string, number[]> }).runBench(n, runs, warmup), [size, RUNS, WARMUP] as const);
    const base = summarize(result.baseline!);
    const label = size.toLocaleString('en-US');
    rows.push({ files: label, case: 'baseline: plain <li> per path', 'median ms': base.p50, 'p95 ms': base.p95, ratio: 1 });
    const list = summarize(result.list!);
    rows.push({ files: label, case: 'DiffFileList (all rows)', 'median ms': list.p50, 'p95 ms': list.p95, ratio: list.p50 / base.p50 });
    const filtered = summarize(result.filtered!);
    rows.push({ files: label, case: 'DiffFileList, filter "pkg-3/ module"', 'median ms': filtered.p50, 'p95 ms': filtered.p95, ratio: filtered.p50 / base.p50 });
  }
  printTable(rows);
} finally {
  await browser.close();
  await server.close();
  await rm(OUT, { recursive: true, force: true });
}
