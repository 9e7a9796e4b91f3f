import type { Page } from '@playwright/test';
import type { RunningHost } from '../support/browser-host.js';
import { expect, test } from '../support/fixtures.js';
import { afterTwoFrames, isOlderPage, MAX_WHEELS, oldestRendered } from '../support/conversation-scroll.js';
import { holdReplies } from '../support/held-replies.js';
import { FIRST_MESSAGE_PHRASE, seedLargeSession } from '../support/large-session.js';

/** The newest message row of the 100,000-message session that is shown (the last one is a tool result in a card). */
const NEWEST = '[data-testid="message"][data-seq="99998"]';

/** Opens a 100,000-message session in a browser host, with its pages' requests read (and held when asked); returns once the newest message is on screen. */
async function openAtNewest(page: Page, home: string, launchHost: () => Promise<RunningHost>): Promise<Awaited<ReturnType<typeof holdReplies>>> {
  const id = await seedLargeSession(home, 100_000);
  const host = await launchHost();
  const pages = await holdReplies(page, 'session:messages');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${host.url}#session=${id}`);
  await expect(page.locator(NEWEST)).toBeInViewport();
  return pages;
}

/**
 * The pages of a long conversation as the browser host is asked for them: which are asked for and
 * when, and what a late answer does to the pane. The requests are read and held on the page's
 * WebSocket (support/held-replies.ts), so these run on the browser host only.
 */
test.describe('the conversation\'s pages', () => {
  test('no older page is asked for at open or after "Jump to the newest"; an older page goes in above what is on screen without moving it', async ({ page, home, launchHost }) => {
    test.setTimeout(120_000);
    const pages = await openAtNewest(page, home.path, launchHost);
    const newest = page.locator(NEWEST);
    // The top rows rendered before the opening scroll landed are not a scroll up.
    expect(pages.asked().filter(isOlderPage), 'older pages asked for before any scroll').toEqual([]);

    // Scroll up until the list asks for an older page; its answer is held back.
    pages.hold(true);
    let asked = false;
    const olderAsked = pages.next(isOlderPage).then((request) => ((asked = true), request));
    await page.mouse.move(800, 500);
    for (let i = 0; i < MAX_WHEELS && !asked; i++) await page.mouse.wheel(0, -600);
    const older = await olderAsked;
    expect(older.payload.beforeSeq).toBe(99_800);
    // On to the top of what is held: the oldest message held is on screen when the page arrives.
    const oldestHeld = page.locator('[data-testid="message"][data-seq="99800"]');
    for (let i = 0; i < MAX_WHEELS && (await page.evaluate(() => document.querySelector('[data-scroll-root]')!.scrollTop)) > 0; i++) await page.mouse.wheel(0, -600);
    await expect(oldestHeld).toBeInViewport();
    await afterTwoFrames(page);
    const before = (await oldestHeld.boundingBox())!.y;
    pages.hold(false);
    older.release();
    await expect.poll(() => oldestRendered(page)).toBeLessThan(99_800);
    await afterTwoFrames(page);
    // The page went in above it: the message is where it was, not 200 messages down. (It moves up by
    // the gap that now separates it from the row before it, 12 px, when the pane was at its very top.)
    await expect(oldestHeld).toBeInViewport();
    expect(Math.abs((await oldestHeld.boundingBox())!.y - before)).toBeLessThanOrEqual(20);

    await page.getByTestId('jump-first').click();
    await expect(page.locator('[data-testid="message"][data-seq="0"]')).toContainText(FIRST_MESSAGE_PHRASE);
    const olderBeforeNewest = pages.asked().filter(isOlderPage).length;
    await page.getByTestId('jump-newest').click();
    await expect(newest).toBeInViewport();
    // The old window's top was still on screen when the newest page rendered: not a scroll up either.
    expect(pages.asked().filter(isOlderPage).slice(olderBeforeNewest), 'older pages asked for after "Jump to the newest"').toEqual([]);
  });

  test('an older page still in flight when "Jump to the first message" is clicked is dropped: the jump keeps loading and lands on the first message', async ({ page, home, launchHost }) => {
    test.setTimeout(120_000);
    const pages = await openAtNewest(page, home.path, launchHost);

    // Scroll up until the list asks for an older page; the host's answer is held back.
    pages.hold(true);
    let asked = false;
    const olderAsked = pages.next((p) => typeof p.beforeSeq === 'number').then((request) => ((asked = true), request));
    await page.mouse.move(800, 500);
    for (let i = 0; i < MAX_WHEELS && !asked; i++) await page.mouse.wheel(0, -600);
    const older = await olderAsked;
    await page.getByTestId('jump-first').click();
    const jump = await pages.next((p) => p.afterSeq === -1);
    pages.hold(false);

    // The older page arrives first, for a window the jump replaced: the jump is still loading.
    const status = page.getByTestId('conversation-loading');
    older.release();
    for (let i = 0; i < 10; i++) {
      await page.waitForTimeout(100);
      await expect(status).toHaveText('Loading messages…', { timeout: 1 });
    }
    jump.release();
    const first = page.locator('[data-testid="message"][data-seq="0"]');
    await expect(first).toBeInViewport();
    await expect(first).toContainText(FIRST_MESSAGE_PHRASE);
    await expect(status).toHaveText('');
    // What is rendered is the start of the session, contiguous from message 0.
    const seqs = await page.evaluate(() => Array.from(document.querySelectorAll('[data-testid="message"]'), (m) => Number(m.getAttribute('data-seq'))));
    expect(seqs[0]).toBe(0);
    expect(Math.max(...seqs)).toBeLessThan(400);
    await expect(first).toBeInViewport();
  });
});
