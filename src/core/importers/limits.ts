/**
 * Every byte and count limit the importers use, named in one place. The scan must stay fast with
 * thousands of multi-megabyte logs, so a listing reads a bounded head and a bounded tail only.
 */

/** A file this small is read whole by the scan: its message count is exact. */
export const WHOLE_READ_MAX_BYTES = 48 * 1024;
/** First read at the start of a file (metadata, first prompt). */
export const HEAD_INITIAL_BYTES = 8 * 1024;
/** The head read grows (doubling) until a first prompt is found or this much was read. */
export const HEAD_MAX_BYTES = 256 * 1024;
/** First read at the end of a file (latest timestamp, model, branch, last line). */
export const TAIL_INITIAL_BYTES = 8 * 1024;
/** The tail read grows until it holds one complete line or this much was read. */
export const TAIL_MAX_BYTES = 2 * 1024 * 1024;
/** Reads spread over the middle of a large file, to estimate its message count. */
export const MIDDLE_SAMPLES = 3;
export const MIDDLE_SAMPLE_BYTES = 8 * 1024;
/** A sampled line running past its window is read on in steps starting at this size. */
export const EXTEND_INITIAL_BYTES = 4 * 1024;
/** An append-only file that grew by at most this much is continued from the cached offset. */
export const APPEND_CONTINUE_MAX_BYTES = 4 * 1024 * 1024;
/** Bytes before the cached end offset that must be unchanged for a continuation to be trusted. */
export const APPEND_CHECK_BYTES = 64;
/** The message ids of one Claude API response sit close together; this many are remembered. */
export const RECENT_RESPONSE_IDS = 8;
/** Of those, the scan cache keeps this many (an appended line continues at most the last response). */
export const RECENT_RESPONSE_IDS_KEPT = 2;

/** Titles are the first real prompt, cut to this many characters. */
export const TITLE_MAX_CHARS = 120;
/** Message content cap for imported messages (below MESSAGE_CONTENT_MAX_CHARS of the schema). */
export const IMPORTED_CONTENT_MAX_CHARS = 1024 * 1024;
/**
 * Tool output kept on an imported tool call; the rest is cut with a marker. As large as any
 * message: the landing trims outputs structurally and keeps the full text as an artifact
 * (src/core/context/trim-tool-output.ts), so a smaller cap here would lose output silently.
 */
export const TOOL_OUTPUT_MAX_CHARS = IMPORTED_CONTENT_MAX_CHARS;
/** readAgentSession refuses files larger than this instead of exhausting memory. */
export const FULL_READ_MAX_BYTES = 1024 * 1024 * 1024;
/** Chunk size of streamed full reads and appended-range reads. */
export const READ_CHUNK_BYTES = 1024 * 1024;
/** One line longer than this is counted as damaged and skipped (never held in memory whole). */
export const LINE_MAX_BYTES = 64 * 1024 * 1024;
/** Stats run synchronously this many at a time, yielding to the event loop in between. */
export const STAT_BATCH = 256;
/**
 * A cold scan reads its small files (at most WHOLE_READ_MAX_BYTES, nothing cached) synchronously,
 * this many per batch: at most 12 MB held, a few milliseconds of blocked event loop per batch.
 */
export const SCAN_READ_BATCH = 256;
/**
 * A scan that lists its rows as it reads (a host on a fresh data directory) reads this many of the
 * newest files in its first batch and lists them alone: the first screen's worth (rows are 60 px,
 * so 64 fill a tall window twice). Its first rows then wait for these files' read, digest and
 * redaction only, not for SCAN_READ_BATCH's.
 */
export const SCAN_FIRST_ROWS = 64;
/**
 * A cold scan yields to the event loop after this much parsing (also within a batch): the host
 * serving its page and answering the UI while it scans waits at most this long per turn.
 */
export const SCAN_SLICE_MS = 5;
/** Files read in parallel during a scan. */
export const SCAN_CONCURRENCY = 16;
/** Version of the scan cache file; another version is ignored and rebuilt. */
export const SCAN_CACHE_VERSION = 2;
/**
 * A folder whose mtime is this close to the scan that saw it is not trusted by the quick warm
 * scan: file systems stamp folders with a coarse clock, so a file created in the same tick as the
 * folder's stat would leave the mtime unchanged and go unseen.
 */
export const FOLDER_MTIME_RACY_MS = 2_000;
/**
 * The quick warm scan (quick-scan.ts) trusts the index's size and mtime for every file it does
 * not stat for at most this long after a full scan confirmed them; then the next listing stats
 * every file again. Bounds how long an older session that grew can show its old count and time
 * when no host runs (a host sees the change within a second and rewrites the index).
 */
export const FULL_VERIFY_MAX_AGE_MS = 60_000;
/** The quick warm scan stats this many of the most recently modified files (the active sessions) on every listing. */
export const QUICK_VERIFY_NEWEST = 256;
/**
 * Worker threads a cold scan summarizes its new files in (scan-pool.ts): two, for the two cores
 * Baton is measured on; the scan's own thread stats, redacts and writes meanwhile. A CLI listing,
 * whose thread parses too, starts one fewer than the cores while its heap grows freely
 * (scan-pooling.ts defaultWorkers). BATON_SCAN_WORKERS overrides it (0: every file in the scan's thread).
 */
export const SCAN_WORKERS = 2;
/**
 * Young generation of a scan worker (MB): a worker's garbage is per file (each 20 KB log parsed
 * and dropped), so a small nursery costs little; V8's default let each worker's grow to tens of
 * MB, most of a cold listing's memory beyond its entries at 100,000 sessions (issue 15).
 */
export const SCAN_WORKER_YOUNG_MB = 6;
/**
 * Young generation of a CLI listing's worker while the scan's heap grows freely (fewer than
 * SCAN_HEAP_CAP_MIN_FILES files: one worker, scan-pooling.ts workerYoungMb). Each task's 64 states
 * outlived the 6 MB nursery's scavenges and were promoted; at 16 MB the worker's CPU over the same
 * 6,000 files fell 281 ms (-12.6 %, 9 of 9 alternated rounds), its heap ~20 MB larger
 * (bench/README.md, issue 15, seventeenth sitting). A capped heap (100,000 sessions, two workers)
 * and a host's scan keep SCAN_WORKER_YOUNG_MB: their peak is what is measured there.
 */
export const SCAN_WORKER_FREE_YOUNG_MB = 16;
/**
 * A full scan of at least this many session files caps V8's heap growth (perf/heap-growth.ts)
 * before it reads them; a smaller one leaves the growth to V8. The cap is for the 100,000-session
 * peak (its read ends with ~110 MB alive). At 20,000 sessions ~25 MB stay alive, and the cap made
 * V8 mark that heap again every few megabytes: a third of a cold listing's GC, ~0.35 s of CPU, for
 * ~30 MB of peak RSS (176-184 -> 207-211 MB); just under this threshold (29,800 sessions) it saved
 * ~0.9 s of CPU for 193 -> 221-225 MB (bench/README.md, issue 15, fourteenth sitting).
 */
export const SCAN_HEAP_CAP_MIN_FILES = 30_000;
/** Below this many new files a scan reads them itself: starting a worker costs more than it saves. */
export const POOL_MIN_FILES = 512;
/** Files per task sent to a worker: small enough that both workers share the first batch. */
export const POOL_TASK_FILES = 64;
/**
 * Niceness of the workers of a scan that lists rows as it reads (a host on a fresh data
 * directory): the page it serves loads and draws first; a CLI waiting for its listing keeps 0.
 */
export const SCAN_WORKER_NICE = 10;
