import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFirstScreenHold } from './first-screen-hold.js';

/** When a new host's whole index read begins after its first screen answered the UI (issue 15, sixteenth sitting). */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A wait whose end is observed as the fake clock moves. */
function waiting(hold: ReturnType<typeof createFirstScreenHold>): { done: () => boolean } {
  let done = false;
  void hold.wait().then(() => (done = true));
  return { done: () => done };
}

const OPTIONS = { capMs: 3_000, readAfterMs: 1_000, maxAfterMs: 5_000 };

describe('the first screen hold', () => {
  it('without an answer, ends at its cap', async () => {
    const hold = createFirstScreenHold(OPTIONS);
    const w = waiting(hold);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(w.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.done()).toBe(true);
  });

  it('after an answer, ends readAfterMs after the last one (a reload answered too), not at the cap, and at most maxAfterMs after the first', async () => {
    const hold = createFirstScreenHold(OPTIONS);
    const w = waiting(hold);
    await vi.advanceTimersByTimeAsync(2_500);
    hold.answered();
    // The cap (3 s) passes: the answer governs now.
    await vi.advanceTimersByTimeAsync(900);
    expect(w.done()).toBe(false);
    hold.answered(); // a reload's first page
    await vi.advanceTimersByTimeAsync(900);
    expect(w.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(w.done()).toBe(true);

    const busy = createFirstScreenHold(OPTIONS);
    const b = waiting(busy);
    busy.answered();
    for (let t = 0; t < 4_800; t += 800) {
      await vi.advanceTimersByTimeAsync(800);
      busy.answered();
    }
    expect(b.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(b.done()).toBe(true);
  });

  it('an answer or end() before the wait began counts', async () => {
    const early = createFirstScreenHold(OPTIONS);
    early.answered();
    await vi.advanceTimersByTimeAsync(500);
    const e = waiting(early);
    await vi.advanceTimersByTimeAsync(499);
    expect(e.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(e.done()).toBe(true);

    const ended = createFirstScreenHold(OPTIONS);
    ended.end();
    const n = waiting(ended);
    await vi.advanceTimersByTimeAsync(0);
    expect(n.done()).toBe(true);
    expect(ended.ended()).toBe(true);
    // An answer after the end re-arms nothing.
    ended.answered();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('end() during the wait ends it at once', async () => {
    const hold = createFirstScreenHold(OPTIONS);
    const w = waiting(hold);
    hold.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.done()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
