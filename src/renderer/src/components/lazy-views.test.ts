import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRELOAD_DELAY_MS, preloadViews, type PreloadHost } from './lazy-views';

/**
 * Issue 15 (reload ≤ 300 ms): the split views' preload must not run right after the first rows
 * (a reload then waits for the old page's chunk evaluation); it waits for the person's first input
 * or PRELOAD_DELAY_MS, and then for idle time.
 */
function fakeWindow(): PreloadHost & EventTarget & { idle: ReturnType<typeof vi.fn> } {
  const target = new EventTarget();
  const idle = vi.fn((run: () => void) => {
    run();
    return 1;
  });
  return Object.assign(target, {
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as unknown as Window['setTimeout'],
    clearTimeout: ((id?: number) => clearTimeout(id)) as Window['clearTimeout'],
    requestIdleCallback: idle as unknown as Window['requestIdleCallback'],
    idle,
  });
}

describe('preloadViews', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('fetches nothing right after the first rows, and every view once PRELOAD_DELAY_MS has passed', () => {
    const host = fakeWindow();
    const loads = [vi.fn(async () => undefined), vi.fn(async () => undefined)];
    preloadViews(host, loads);
    vi.advanceTimersByTime(PRELOAD_DELAY_MS - 1);
    expect(host.idle).not.toHaveBeenCalled();
    expect(loads[0]).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(host.idle).toHaveBeenCalledTimes(1);
    expect(loads.map((l) => l.mock.calls.length)).toEqual([1, 1]);
  });

  it('starts at the first pointer move, once, and not again when the delay ends', () => {
    const host = fakeWindow();
    const load = vi.fn(async () => undefined);
    preloadViews(host, [load]);
    vi.advanceTimersByTime(500);
    expect(load).not.toHaveBeenCalled();
    host.dispatchEvent(new Event('pointermove'));
    host.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(PRELOAD_DELAY_MS * 2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts at a key press too', () => {
    const host = fakeWindow();
    const load = vi.fn(async () => undefined);
    preloadViews(host, [load]);
    host.dispatchEvent(new Event('keydown'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('is scheduled once per page: a second call (the list shown again) adds nothing', () => {
    const host = fakeWindow();
    const load = vi.fn(async () => undefined);
    preloadViews(host, [load]);
    preloadViews(host, [load]);
    vi.advanceTimersByTime(PRELOAD_DELAY_MS);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('without requestIdleCallback (Safari) it falls back to a timer, still after the delay', () => {
    const host = fakeWindow();
    delete host.requestIdleCallback;
    const load = vi.fn(async () => undefined);
    preloadViews(host, [load]);
    vi.advanceTimersByTime(PRELOAD_DELAY_MS);
    expect(load).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed chunk fetch is swallowed (the click shows the error through React.lazy)', async () => {
    const host = fakeWindow();
    const load = vi.fn(async () => {
      throw new Error('chunk 404');
    });
    preloadViews(host, [load]);
    host.dispatchEvent(new Event('pointermove'));
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
