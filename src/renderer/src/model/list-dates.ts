import { prepareListDates } from './relative-time';

/**
 * Whether the rows' date format is made, and making it once a row needs it, after the page's next
 * paint. The page's first Intl.DateTimeFormat loads ICU's data (26–170 ms in a new Chromium page
 * here, the more the busier the machine; issue 15): made in the rows' first render, or in an idle
 * callback that is still running when the host's first answer comes, it delays the first row. A
 * row older than a week shows its day as YYYY-MM-DD until then (relative-time.ts `isoDay`), the
 * locale's date a frame later.
 */
let ready = false;
let scheduled = false;
const listeners = new Set<() => void>();

export function listDatesReady(): boolean {
  return ready;
}

/** For useSyncExternalStore: the first subscriber schedules the format, every one hears it is made. */
export function subscribeListDates(listener: () => void): () => void {
  listeners.add(listener);
  if (!ready && !scheduled) {
    scheduled = true;
    afterNextPaint(makeListDates);
  }
  return () => listeners.delete(listener);
}

function makeListDates(): void {
  prepareListDates();
  ready = true;
  for (const listener of [...listeners]) listener();
}

// A task queued from an animation frame runs after that frame's paint. A hidden page gets no frame
// until it is shown, and shows no row before then either.
function afterNextPaint(run: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}
