import { limitHeapGrowth } from '../perf/heap-growth.js';
import { SCAN_HEAP_CAP_MIN_FILES } from './limits.js';

/**
 * Caps V8's heap growth for a full scan of `files` session files when there are enough of them for
 * the entries held to the end of the read to matter (SCAN_HEAP_CAP_MIN_FILES). Called after
 * discovery, before any file is read: each mark-compact sets the next limit with the flag as it is
 * then. `held`: a host keeps the scan's entries for its whole life (its first scan, which lists its
 * rows as it reads), so its heap is capped as before, from limitHeapGrowth's own threshold. A
 * process that capped already (a host that read a resident index) stays capped.
 */
export function limitScanHeapGrowth(files: number, held: boolean): void {
  if (held || files >= SCAN_HEAP_CAP_MIN_FILES) limitHeapGrowth(files);
}
