import type { Page } from '@playwright/test';

/** Wheel events at most while scrolling the conversation towards something that should come. */
export const MAX_WHEELS = 300;

/** The smallest seq among the message rows rendered now. */
export function oldestRendered(page: Page): Promise<number> {
  return page.evaluate(() => Math.min(...Array.from(document.querySelectorAll('[data-testid="message"]'), (m) => Number(m.getAttribute('data-seq')))));
}

/** Resolves after the page painted two more frames: what a resize observer corrects has been corrected. */
export function afterTwoFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** An older page's request: `beforeSeq` below the end of time (a jump to the newest asks "before" that). */
export function isOlderPage(payload: Record<string, unknown>): boolean {
  return typeof payload.beforeSeq === 'number' && payload.beforeSeq < Number.MAX_SAFE_INTEGER;
}
