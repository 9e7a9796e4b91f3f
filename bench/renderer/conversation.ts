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
const OPENS = 5;

const home = await mkdtemp(join(tmpdir(), 'baton-bench-conv-'));
const seeded = Date.now();
const large = await seedLargeSession(home, COUNT);
const small = await seedLargeSession(home, 20, 'baseline: 20 messages');
console.log(`seeded ${COUNT.toLocaleString('en-US')} messages in ${Date.now() - seeded} ms`);
const host = await startBrowserHost(home);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });

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
    (min) => [...document.querySelectorAll('[data-testid="message"]')].some((m) => Number(m.getAttribute('data-seq')) >= min && m.getBoundingClientRect().bottom <= window.innerHeight && m.getBoundingClientRect().bottom > 0),
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
    (min) => [...document.querySelectorAll('[data-testid="message"]')].some((m) => Number(m.getAttribute('data-seq')) >= min && m.getBoundingClientRect().bottom <= window.innerHeight && m.getBoundingClientRect().bottom > 0),
    expectCount - 2,
    { timeout: 30_000, polling: 'raf' },
  );
  const clickMs = (await page.evaluate(() => performance.now())) - t0;
  await page.close();
  return { ...result, clickMs };
}

async function scroll(id: string): Promise<{ frames: number[]; loadedFrom: number; domNodes: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${host.url}#session=${id}`);
  await page.locator('[data-testid="message"]').first().waitFor();
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
    await page.mouse.wheel(0, -400);
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
  for (const [label, id, count] of [['baseline: 20 messages', small, 20], [`${COUNT.toLocaleString('en-US')} messages`, large, COUNT]] as const) {
    const opens: Open[] = [];
    for (let i = 0; i < OPENS; i++) opens.push(await open(id, count));
    const first = summarize(opens.map((o) => o.firstScreenMs));
    const click = summarize(opens.map((o) => o.clickMs));
    const scrolled = await scroll(id);
    const frames = summarize(scrolled.frames);
    rows.push({
      session: label,
      'page load → first screen p50 ms': first.p50,
      'click → first screen p50 ms': click.p50,
      'click → first screen max ms': Math.max(...opens.map((o) => o.clickMs)),
      'DOM nodes': opens[0]!.domNodes,
      'messages in DOM': opens[0]!.messagesInDom,
      'frame p50 ms': frames.p50,
      'frame p95 ms': frames.p95,
      frames: frames.n,
      'DOM nodes after scroll': scrolled.domNodes,
      'oldest seq reached': scrolled.loadedFrom,
    });
  }
  printTable(rows);
} finally {
  await browser.close();
  await host.stop();
  await rm(home, { recursive: true, force: true });
}
