/**
 * Shiki (core + JavaScript regex engine, as src/renderer/src/features/conversation/highlight.ts
 * loads it) against Monaco's editor.colorize, in the same real Chromium, each in a fresh page:
 * bytes the first highlight downloads (lazy chunks), time to the first highlighted block (load,
 * parse, init), and the steady per-block cost over realistic agent code blocks (TypeScript, ~40
 * lines). Baseline in the same run: the block set as plain text (textContent), no highlighting.
 * Run: npx tsx bench/renderer/highlighter.ts
 */
import { join } from 'node:path';
import { printTable, summarize } from '../stats.js';
import { openBenchPage, ROOT } from './browser-page.js';

const BLOCKS = 200;
const WARMUP = 20;

const ENTRY = `
const block = (i) => Array.from({ length: 40 }, (_, l) =>
  l % 5 === 0 ? '// step ' + i + '.' + l + ': keep the zone' : 'export async function load' + l + '(zone: string, n = ' + (i * l) + '): Promise<number> { return n + zone.length; }').join('\\n');
const blocks = Array.from({ length: ${BLOCKS + WARMUP} }, (_, i) => block(i));
function bytesSince(before) {
  return performance.getEntriesByType('resource').slice(before).reduce((n, e) => n + (e.encodedBodySize || 0), 0);
}
async function timeBlocks(colorize) {
  const samples = [];
  for (let i = 0; i < blocks.length; i++) {
    const start = performance.now();
    await colorize(blocks[i]);
    if (i >= ${WARMUP}) samples.push(performance.now() - start);
  }
  return samples;
}
window.runShiki = async () => {
  const before = performance.getEntriesByType('resource').length;
  const start = performance.now();
  const { highlight } = await import(${JSON.stringify(join(ROOT, 'src/renderer/src/features/conversation/highlight.ts'))});
  const first = await highlight(blocks[0], 'typescript');
  if (!first || first.length !== 40) throw new Error('shiki gave no tokens');
  const firstMs = performance.now() - start;
  const samples = await timeBlocks((code) => highlight(code, 'typescript'));
  return { firstMs, bytes: bytesSince(before), samples };
};
window.runMonaco = async () => {
  const before = performance.getEntriesByType('resource').length;
  const start = performance.now();
  // The same import the app's diff view makes (src/renderer/src/features/workspace/monaco-diff.ts).
  const monaco = await import('monaco-editor');
  const first = await monaco.editor.colorize(blocks[0], 'typescript', {});
  if (!first.includes('mtk')) throw new Error('monaco gave no tokens');
  const firstMs = performance.now() - start;
  const samples = await timeBlocks((code) => monaco.editor.colorize(code, 'typescript', {}));
  return { firstMs, bytes: bytesSince(before), samples };
};
window.runPlain = async () => {
  const el = document.createElement('pre');
  const samples = await timeBlocks(async (code) => { el.textContent = code; });
  return { firstMs: 0, bytes: 0, samples };
};
`;

const page = await openBenchPage('highlighter', ENTRY);
try {
  const rows: Record<string, string | number>[] = [];
  for (const [label, fn] of [['baseline: plain text', 'runPlain'], ['Shiki 4.6 core + JS engine', 'runShiki'], ['Monaco 0.57 editor.colorize', 'runMonaco']] as const) {
    const tab = await page.browser.newPage();
    await tab.goto(page.url);
    await tab.waitForFunction(() => 'runShiki' in window);
    const result = await tab.evaluate((name) => (window as unknown as Record<string, () => Promise<{ firstMs: number; bytes: number; samples: number[] }>>)[name]!(), fn);
    const s = summarize(result.samples);
    rows.push({ highlighter: label, 'lazy bytes (KiB)': Math.round(result.bytes / 1024), 'first block ms': result.firstMs, 'per block p50 ms': s.p50, 'per block p95 ms': s.p95 });
    await tab.close();
  }
  printTable(rows);
} finally {
  await page.close();
}
