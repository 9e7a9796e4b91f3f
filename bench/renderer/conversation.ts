/**
 * Issue 14's target for a 100,000-message session, in real Chromium against the real host:
 * `baton serve` (the built CLI and renderer, npm run build) on a store seeded with the session, the
 * page opened at it. Measured: first screen (navigation start → the newest message painted),
 * DOM nodes after it, and frame times while scrolling up through older pages (requestAnimationFrame
 * deltas during 240 wheel steps, which load pages from the host as they go). Baseline in the same
 * run: a 20-message session through the same host and page.
 * Run: npm run build && npx tsx bench/renderer/conversation.ts [messages]
 */
import { chromium } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost } from '../../e2e/support/browser-host.js';
import { seedLargeSession } from '../../e2e/support/large-session.js';
import { printTable, summarize } from '../stats.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const WHEEL_STEPS = 240;
/** Pixels per wheel step: 120 is one notch of a mouse wheel; 400 is a fast fling (about 24,000 px/s). */
const WHEEL_PX = [120, 400];
const OPENS = 5;

const home = await mkdtemp(join(tmpdir(), 'baton-bench-conv-'));
const seeded = Date.now();
const large = await seedLargeSession(home, COUNT);
const small = await seedLargeSession(home, 20, 'baseline: 20 messages');
console.log(`seeded ${COUNT.toLocaleString('en-US')} messages in ${Date.now() - seeded} ms`);
const host = await startBrowserHost(home);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });

function pctOver(values: readonly number[], ms: number): string {
  return `${((100 * values.filter((v) => v > ms).length) / values.length).toFixed(1)}%`;
}

interface Open {
  firstScreenMs: number;
  clickMs: number;
  domNodes: number;
  messagesInDom: number;
}

async function open(id: string, expectCount: number): Promise<Open> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${host.url}#session=${id}`, { waitUntil: 'commit' });
  // The newest shown message (the very last record may be a tool result folded into its call).
  await page.waitForFunction(
    (min) => [...document.querySelectorAll('[data-testid="message"]')].some((m) => Number(m.getAttribute('data-seq')) >= min && m.getBoundingClientRect().top < window.innerHeight - 40 && m.getBoundingClientRect().bottom > 0),
    expectCount - 2,
    { timeout: 30_000, polling: 'raf' },
  );
  const result = await page.evaluate(() => ({
    firstScreenMs: performance.now(),
    domNodes: document.getElementsByTagName('*').length,
    messagesInDom: document.querySelectorAll('[data-testid="message"]').length,
  }));
  // The same session asked for from the list (the app already loaded): click → newest painted.
  await page.goto(`${host.url}`);
  const item = page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
  await item.waitFor();
  const t0 = await page.evaluate(() => performance.now());
  await item.click();
  await page.waitForFunction(
    (min) => [...document.querySelectorAll('[data-testid="message"]')].some((m) => Number(m.getAttribute('data-seq')) >= min && m.getBoundingClientRect().top < window.innerHeight - 40 && m.getBoundingClientRect().bottom > 0),
    expectCount - 2,
    { timeout: 30_000, polling: 'raf' },
  ).catch(async (error: Error) => {
    await page.screenshot({ path: join(tmpdir(), 'baton-bench-conv-failed.png') });
    throw new Error(`${id}: the newest message did not show after a click (${join(tmpdir(), 'baton-bench-conv-failed.png')}): ${error.message}`);
  });
  const clickMs = (await page.evaluate(() => performance.now())) - t0;
  await page.close();
  return { ...result, clickMs };
}

/** id null: the frame baseline, a static page of 3,000 paragraphs (no React, nothing loads) scrolled alike. */
async function scroll(id: string | null, stepPx: number): Promise<{ frames: number[]; loadedFrom: number; domNodes: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (id === null) {
    await page.setContent(`<html><body>${Array.from({ length: 3_000 }, (_, i) => `<p data-testid="message" data-seq="${i}">Paragraph ${i}: the worker retried <em>without</em> a cap.</p>`).join('')}</body></html>`);
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  } else {
    await page.goto(`${host.url}#session=${id}`);
    await page.locator('[data-testid="message"]').first().waitFor();
  }
  await page.waitForTimeout(500);
  // A string, not a function: tsx would wrap a named inner function with a helper the page lacks.
  await page.evaluate(`(() => {
    window.frames_ = [];
    window.stop_ = false;
    let last = performance.now();
    const tick = (t) => { window.frames_.push(t - last); last = t; if (!window.stop_) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await page.mouse.move(800, 500);
  for (let i = 0; i < WHEEL_STEPS; i++) {
    await page.mouse.wheel(0, -stepPx);
    await page.waitForTimeout(16);
  }
  const result = await page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; stop_: boolean };
    w.stop_ = true;
    const seqs = [...document.querySelectorAll('[data-testid="message"]')].map((m) => Number(m.getAttribute('data-seq')));
    return { frames: w.frames_.slice(1), loadedFrom: Math.min(...seqs), domNodes: document.getElementsByTagName('*').length };
  });
  await page.close();
  return result;
}

try {
  const rows: Record<string, string | number>[] = [];
  for (const stepPx of WHEEL_PX) {
    const sample = await scroll(null, stepPx);
    const frames = summarize(sample.frames);
    rows.push({ 'wheel px': stepPx, session: 'baseline: static page, 3,000 paragraphs', 'page load → first screen p50 ms': '–', 'click → first screen p50 ms': '–', 'click → first screen max ms': '–', 'DOM nodes': '–', 'messages in DOM': '–', 'frame p50 ms': frames.p50, 'frame p95 ms': frames.p95, 'frames over 20 ms': pctOver(sample.frames, 20), frames: frames.n, 'DOM nodes after scroll': '–', 'oldest seq reached': '–' });
  }
  for (const [label, id, count] of [['baseline: 20 messages', small, 20], [`${COUNT.toLocaleString('en-US')} messages`, large, COUNT]] as const) {
    const opens: Open[] = [];
    for (let i = 0; i < OPENS; i++) opens.push(await open(id, count));
    const first = summarize(opens.map((o) => o.firstScreenMs));
    const click = summarize(opens.map((o) => o.clickMs));
    for (const stepPx of WHEEL_PX) {
    const scrolled = await scroll(id, stepPx);
    const frames = summarize(scrolled.frames);
    rows.push({
      'wheel px': stepPx,
      session: label,
      'page load → first screen p50 ms': first.p50,
      'click → first screen p50 ms': click.p50,
      'click → first screen max ms': Math.max(...opens.map((o) => o.clickMs)),
      'DOM nodes': opens[0]!.domNodes,
      'messages in DOM': opens[0]!.messagesInDom,
      'frame p50 ms': frames.p50,
      'frame p95 ms': frames.p95,
      'frames over 20 ms': pctOver(scrolled.frames, 20),
      frames: frames.n,
      'DOM nodes after scroll': scrolled.domNodes,
      'oldest seq reached': scrolled.loadedFrom,
    });
    }
  }
  printTable(rows);
} finally {
  await browser.close();
  await host.stop();
  await rm(home, { recursive: true, force: true });
}
