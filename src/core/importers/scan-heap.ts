import { limitHeapGrowth } from '../perf/heap-growth.js';
import { SCAN_HEAP_CAP_MIN_FILES } from './limits.js';

/**
 * Caps V8's heap growth for a full scan of `files` session files when there are enough of them for
 * the entries held to the end of the read to matter (SCAN_HEAP_CAP_MIN_FILES). Called after
 * discovery, before any file is read: each mark-compact sets the next limit with the flag as it is
 * then. A process that already capped (a host that read a resident index) stays capped.
 */
export function limitScanHeapGrowth(files: number): void {
  if (files >= SCAN_HEAP_CAP_MIN_FILES) limitHeapGrowth(files);
}
