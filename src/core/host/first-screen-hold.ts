/**
 * When a new host reads the rest of its candidate index after answering the UI's first page from
 * the index's first screen (issue 15, sixteenth sitting). The whole read (the columns' parse and the
 * order's sort after it: ~150–250 ms of the host's one thread at 20,000 sessions) is not needed for
 * that page, and run beside the page's first render or a reload it held both. So it waits:
 *   - for a page's first answer, at most `capMs` from the start of the wait;
 *   - once a page was answered, `readAfterMs` after the last first-screen answer (a reload right
 *     after is answered from the first screen too), at most `maxAfterMs` after the first one;
 *   - not at all once end() was called (a caller needs every entry, or the host closes), even
 *     before the wait began.
 */
export interface FirstScreenHoldOptions {
  capMs: number;
  readAfterMs: number;
  maxAfterMs: number;
}

export function createFirstScreenHold(options: FirstScreenHoldOptions) {
  let ended = false;
  let timer: NodeJS.Timeout | null = null;
  let release: (() => void) | null = null;
  let firstAnsweredAt = 0;
  const end = (): void => {
    ended = true;
    if (timer) clearTimeout(timer);
    timer = null;
    release?.();
    release = null;
  };
  const arm = (ms: number): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(end, Math.max(0, ms));
  };
  return {
    /** Resolves when the whole read may begin. */
    wait(): Promise<void> {
      if (ended) return Promise.resolve();
      // A page answered before the wait began (the watches were still starting) set the timer already.
      if (!timer) arm(options.capMs);
      return new Promise<void>((resolve) => (release = resolve));
    },
    /** A page was answered from the first screen. */
    answered(): void {
      if (ended) return;
      const now = Date.now();
      if (firstAnsweredAt === 0) firstAnsweredAt = now;
      arm(Math.min(options.readAfterMs, firstAnsweredAt + options.maxAfterMs - now));
    },
    end,
    ended: (): boolean => ended,
  };
}
