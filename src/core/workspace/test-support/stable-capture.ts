import type { CapturedWorkspace } from '../capture.js';

/** A capture without its clocks (the snapshot's time, the observation's), which differ from one capture of the same tree to the next. */
export const stableCapture = (captured: CapturedWorkspace) => ({
  ...captured,
  snapshot: { ...captured.snapshot, capturedAt: '' },
  observed: captured.observed && { ...captured.observed, at: 0 },
});
