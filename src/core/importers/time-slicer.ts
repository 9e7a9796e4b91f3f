/**
 * A pause every `sliceMs` of work, shared by concurrent workers: the first to see the slice
 * spent waits one event-loop turn (setImmediate) and the others wait with it, so requests
 * queued behind the scan (a page load, agents:list) are answered in between.
 */
export function timeSlicer(sliceMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  let pause: Promise<void> | null = null;
  return () => {
    if (pause) return pause;
    if (performance.now() - since < sliceMs) return undefined;
    pause = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pause = null;
      since = performance.now();
    });
    return pause;
  };
}
