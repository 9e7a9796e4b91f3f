import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what a full collection left alive, in percent, once a
 * process holds many sessions (HEAP_GROWTH_CAP_MIN_FILES). V8 sizes the next collection's limit
 * by a factor of 1.1 to 4 of the live heap, the larger the cheaper its collections have been; on
 * a machine with gigabytes free it picks 4. A cold scan at 100,000 sessions keeps ~150 MB alive
 * (the entries, the discovered files and their stats) while it turns over gigabytes of short-lived
 * per-file objects, so its heap grew to ~300 MB of mostly garbage before the next mark-compact,
 * and a host's start and index update the same (bench/README.md, issue 15, tenth sitting).
 */
export const HEAP_GROWING_PERCENT = 25;

/** A process about to hold or read this many session files caps its heap's growth (limitHeapGrowth). */
export const HEAP_GROWTH_CAP_MIN_FILES = 10_000;

let capped = false;

/**
 * Caps the heap's growth between full collections at HEAP_GROWING_PERCENT, for the rest of the
 * process (V8 reads the flag at each collection; it applies to every isolate, the scan workers'
 * too). Called once a process knows it will hold `files` session files, before it decodes or reads
 * them: each mark-compact sets the next limit with the flag as it is then. Below
 * HEAP_GROWTH_CAP_MIN_FILES it does nothing: a small heap never grows far, and each collection
 * the cap adds costs CPU. Set after the CLI's bundles are compiled from their code caches: V8
 * refuses a cache made under other flags (bin/load-cli.js).
 */
export function limitHeapGrowth(files: number): void {
  if (capped || files < HEAP_GROWTH_CAP_MIN_FILES) return;
  capped = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Whether this process capped its heap's growth (limitHeapGrowth): its collections then come every few megabytes. */
export function heapGrowthCapped(): boolean {
  return capped;
}
