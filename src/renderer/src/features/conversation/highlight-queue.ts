/**
 * Highlighting waits for scrolling to stop: Shiki takes ~10 ms a block on this machine
 * (docs/code-highlighting.md), which would land in scroll frames. Blocks are shown plain at once;
 * queued jobs run one per idle moment, only once no scroll happened for SCROLL_QUIET_MS.
 */
export const SCROLL_QUIET_MS = 150;

type Job = () => Promise<void>;
const queue = new Set<Job>();
let lastScrollAt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let listening = false;

function listen(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  document.addEventListener('scroll', () => (lastScrollAt = performance.now()), { capture: true, passive: true });
  document.addEventListener('wheel', () => (lastScrollAt = performance.now()), { capture: true, passive: true });
}

function pump(): void {
  if (timer !== null || queue.size === 0) return;
  const wait = Math.max(0, lastScrollAt + SCROLL_QUIET_MS - performance.now());
  timer = setTimeout(() => {
    timer = null;
    if (performance.now() - lastScrollAt < SCROLL_QUIET_MS) return pump();
    // Every queued block may have been cancelled (scrolled away) while the timer waited.
    const next = queue.values().next();
    if (next.done) return;
    const job = next.value;
    queue.delete(job);
    void job().finally(pump);
  }, wait);
}

/** Runs `job` when scrolling is quiet; the returned function cancels it (a block scrolled away). */
export function whenQuiet(job: Job): () => void {
  listen();
  queue.add(job);
  pump();
  return () => queue.delete(job);
}
