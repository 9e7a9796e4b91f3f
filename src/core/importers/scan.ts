import { candidateFromState, candidateWithNote, ZST_NOTE } from './candidate.js';
import { messagesOf } from './digest.js';
import { discoverSessionFiles, type FoundFile } from './discover.js';
import { statForFirstRows } from './first-rows.js';
export type { FoundFile } from './discover.js';
import { errnoOf } from './errors.js';
import { timeSlicer } from './time-slicer.js';
import { SCAN_CONCURRENCY, SCAN_FIRST_ROWS, SCAN_READ_BATCH, SCAN_SLICE_MS, WHOLE_READ_MAX_BYTES } from './limits.js';
import type { ScanPool } from './scan-pool.js';
import { isNewFile, startPoolFor, summarizeInPool } from './scan-pooling.js';
import { locateAgentDirs } from './locate.js';
import { nodeImportReader, statAll, type ImportReader, type ImportStat } from './reader.js';
import { emptyCache, loadScanCache, NO_STATES, openScanCacheWriter, stateLookup, type ScanCache, type ScanCacheWriter, type StateLookup } from './scan-cache.js';
import { candidateIndexFileFor, entryOf, markCandidateIndexVerified, readCandidateIndex, saveCandidateIndex, type EntryTotals, type IndexEntry, type IndexMeta } from './candidate-index.js';
import { hasRacyFolders, quickIndexScan } from './quick-scan.js';
import { EntryTexts, SCAN_TEXT_CHUNK_BYTES } from './entry-texts.js';
import type { IndexedFile } from './indexed-files.js';
import { summarizeFile, type FileState } from './summarize-file.js';
import { redactStates } from './redact-state.js';
import { limitScanHeapGrowth } from './scan-heap.js';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { markPhase } from '../perf/phase-trace.js';
import type { AgentSource, ImportedCandidate, ScanResult, ScanStats } from './types.js';

export interface ScanOptions {
  env?: NodeJS.ProcessEnv;
  /** JSON cache of per-file digests (Baton's own file, e.g. <data dir>/importers-cache.json). */
  cacheFile?: string;
  /** Only this tool's sessions. */
  source?: AgentSource;
  /** Injected for tests (counting, faults); defaults to node:fs. */
  reader?: ImportReader;
  /**
   * Worker threads for a cold scan's new files (scan-pool.ts); default BATON_SCAN_WORKERS, else
   * SCAN_WORKERS. Used only with the default reader and at least POOL_MIN_FILES new files.
   */
  workers?: number;
  /** A pool the caller started and closes (tests share one across scans); used for any number of new files. */
  pool?: ScanPool;
}

/** `redacted`: the state came from the pool, redacted there (redactFreshStates leaves it). */
type Outcome =
  | { kind: 'candidate'; candidate: ImportedCandidate; state?: FileState; read: boolean; redacted?: true }
  | { kind: 'skip'; reason: string; state?: FileState; read: boolean; redacted?: true };

/** A cold scan reports its progress at most this often. */
export const PROGRESS_INTERVAL_MS = 100;
/** A long scan hands out its candidates so far after its first batch, then at most this often. */
export const PARTIAL_INTERVAL_MS = 1000;

function emptyStats(): ScanStats {
  return { files: 0, parsed: 0, cached: 0, skipped: 0, skippedReasons: {}, tornLines: 0, unknownTypes: 0, danglingParents: 0, compactions: 0, bytesRead: 0, ms: 0 };
}

/** Bytes a reader reported, for stats; the node reader does not count, so wrap it. */
function byteCountingReader(base: ImportReader): { reader: ImportReader; bytes: () => number } {
  let bytes = 0;
  return {
    bytes: () => bytes,
    reader: {
      readdir: (d) => base.readdir(d),
      stat: (p) => base.stat(p),
      ...(base.statMany ? { statMany: base.statMany.bind(base) } : {}),
      ...(base.realpath ? { realpath: base.realpath.bind(base) } : {}),
      ...(base.readPrefixes
        ? {
            async readPrefixes(items: ReadonlyArray<{ path: string; length: number }>) {
              const out = await base.readPrefixes!(items);
              for (const r of out) if (!(r instanceof Error)) bytes += r.length;
              return out;
            },
          }
        : {}),
      async open(path) {
        const h = await base.open(path);
        return {
          async read(position, length) {
            const buf = await h.read(position, length);
            bytes += buf.length;
            return buf;
          },
          close: () => h.close(),
        };
      },
    },
  };
}

/** `summarized`: the file's summary already made (by a scan worker), used instead of reading it here. */
async function scanOne(reader: ImportReader, file: FoundFile, stat: ImportStat | Error, cached: FileState | undefined, prefix?: Buffer, summarized?: FileState | Error): Promise<Outcome> {
  if (stat instanceof Error) {
    const code = errnoOf(stat);
    if (code === 'ENOENT') return { kind: 'skip', reason: 'vanished during the scan', read: false };
    return { kind: 'candidate', candidate: candidateWithNote(file.source, file.path, null, `Cannot be read (${code ?? 'error'}).`), read: false };
  }
  if (!stat.isFile) return { kind: 'skip', reason: 'not a regular file', read: false };
  if (file.compressed) return { kind: 'candidate', candidate: candidateWithNote(file.source, file.path, stat, ZST_NOTE), read: false };
  if (stat.size === 0) return { kind: 'skip', reason: 'empty file', read: false };
  let state: FileState;
  let read = false;
  if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs && cached.digest.source === file.source) state = cached;
  else {
    try {
      if (summarized instanceof Error) throw summarized;
      state = summarized ?? (await summarizeFile(reader, file.source, file.path, stat, cached?.digest.source === file.source ? cached : undefined, prefix)).state;
      read = true;
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT') return { kind: 'skip', reason: 'vanished during the scan', read: true };
      const note = `Cannot be read (${code ?? (error instanceof Error ? error.message : 'error')}); check this file's permissions.`;
      return { kind: 'candidate', candidate: candidateWithNote(file.source, file.path, stat, note), read: true };
    }
  }
  const redacted = summarized !== undefined ? { redacted: true as const } : {};
  // Claude Code leaves files holding only summaries or snapshots: nothing to resume.
  if (state.exact && messagesOf(state.digest) === 0) return { kind: 'skip', reason: 'no messages', state, read, ...redacted };
  return { kind: 'candidate', candidate: candidateFromState(file.source, file.path, state), state, read, ...redacted };
}


/**
 * The bytes of the files in `batch` (indexes into `files`) that a cold scan reads whole: new
 * (nothing cached to continue from), regular, uncompressed, not empty, at most
 * WHOLE_READ_MAX_BYTES. Read in one synchronous call when the reader can (readPrefixes); a file
 * that failed or changed size is left out and summarizeFile opens it as before.
 */
async function readSmallFiles(reader: ImportReader, batch: readonly number[], files: readonly FoundFile[], stats: ReadonlyArray<ImportStat | Error>, stateOf: StateLookup): Promise<Map<number, Buffer>> {
  const out = new Map<number, Buffer>();
  if (!reader.readPrefixes) return out;
  const wanted = batch.filter((i) => isNewFile(files[i]!, stats[i]!, stateOf) && (stats[i] as ImportStat).size <= WHOLE_READ_MAX_BYTES);
  if (wanted.length === 0) return out;
  const read = await reader.readPrefixes(wanted.map((i) => ({ path: files[i]!.path, length: (stats[i] as ImportStat).size })));
  wanted.forEach((i, k) => {
    const r = read[k]!;
    if (!(r instanceof Error)) out.set(i, r);
  });
  return out;
}

/**
 * What a scan read for the first time is redacted before it is cached or shown: a title is the
 * first prompt, and a prompt may hold a key. One detector pass for the whole scan; a warm
 * rescan reads nothing new and pays nothing.
 */
async function redactFreshStates(outcomes: Outcome[], files: readonly FoundFile[], paths: readonly string[]): Promise<void> {
  const fresh = outcomes.flatMap((o, i) => (o.read && o.state && !o.redacted ? [i] : []));
  if (fresh.length === 0) return;
  const value = await redactStates(fresh.map((i) => outcomes[i]!.state!));
  fresh.forEach((i, k) => {
    const o = outcomes[i]!;
    const state = value[k]!;
    if (state === o.state) return;
    outcomes[i] = o.kind === 'candidate' ? { ...o, state, candidate: candidateFromState(files[i]!.source, paths[i]!, state) } : { ...o, state };
  });
}

/** A digest cache being rewritten: the writer, the paths whose states it has, and the cache it replaces. */
interface DigestRewrite {
  writer: ScanCacheWriter;
  /** Of the paths written, those the loaded cache holds too (the others are never looked up there). */
  written: ReadonlySet<string>;
  /** The loaded cache's states (NO_STATES: it held none, so there is nothing to carry over). */
  loaded: StateLookup;
}

/**
 * Writes the index and, with `digests` (the scan loaded the digest cache and read new digests),
 * finishes the digest cache the scan wrote as it read with the indexed files it did not read, as
 * the loaded cache held them. Without, the digest cache is left as it is: rewriting it meant
 * parsing it whole (80 MB, 400 MB of a host's peak at 100,000 sessions) to drop the states of files
 * no longer indexed or to add new files' states. Those wait for the next scan that continues a
 * known file (it loads the cache and writes it filtered to its index); a file without a state
 * there is summarized afresh when it changes.
 */
async function persistScan(cacheFile: string, indexed: readonly IndexEntry[], meta: IndexMeta, digests: DigestRewrite | null): Promise<void> {
  if (!digests) return saveCandidateIndex(candidateIndexFileFor(cacheFile), indexed, meta);
  // A cold scan's loaded cache held nothing: no file it did not read has a state to carry over.
  if (digests.loaded !== NO_STATES) {
    for (const e of indexed) {
      const state = digests.written.has(e.path) ? undefined : digests.loaded(e.path);
      if (state) await digests.writer.add(e.path, state);
    }
  }
  // Independent files (either may be missing or older: the next scan rebuilds or re-reads), so their fsyncs overlap.
  await Promise.all([digests.writer.commit(), saveCandidateIndex(candidateIndexFileFor(cacheFile), indexed, meta)]);
}

/**
 * Writes only the compact index (a resident holder's watched changes; the digest cache catches
 * up at the next full scan). Without a scan's view of the folders: the next listing without a
 * host runs a full scan once, which records them again.
 */
export async function persistIndex(cacheFile: string, indexed: readonly IndexEntry[]): Promise<void> {
  await saveCandidateIndex(candidateIndexFileFor(cacheFile), indexed);
}

export interface FileUpdate {
  path: string;
  /** The file's entry now; null when it is gone or lists nothing (empty, unreadable folder …). */
  entry: IndexEntry | null;
  /** Its digest when it was read (kept by the caller to continue the next append, and persisted). */
  state?: FileState;
}

/**
 * Re-reads only the given session files (a watcher saw them change), each continued from the
 * state the caller kept, else summarized afresh (head and tail, as a cold scan would). Null when a file is a symbolic link: links are
 * checked against the tool's folder by a full scan (discover.ts), not here.
 */
export async function rescanFiles(files: readonly FoundFile[], options: ScanOptions & { states?: ReadonlyMap<string, FileState> }): Promise<FileUpdate[] | null> {
  const reader = options.reader ?? nodeImportReader;
  const paths = files.map((f) => f.path);
  if (reader.realpath) {
    for (const path of paths) {
      const [file, dir] = await Promise.all([reader.realpath(path).catch(() => null), reader.realpath(dirname(path)).catch(() => null)]);
      if (file !== null && dir !== null && file !== join(dir, basename(path))) return null;
    }
  }
  const stats = await statAll(reader, paths);
  // Only the caller's own digests: parsing the whole digest cache (80 MB at 100,000 sessions) to
  // continue one file would cost more than reading that file's head and tail afresh.
  const outcomes = await Promise.all(files.map((f, i) => scanOne(reader, f, stats[i]!, options.states?.get(f.path))));
  await redactFreshStates(outcomes, files, paths);
  return outcomes.map((o, i) => {
    const stat = stats[i]!;
    const size = stat instanceof Error ? 0 : stat.size;
    const mtimeMs = stat instanceof Error ? 0 : stat.mtimeMs;
    const entry = o.kind === 'candidate' || o.state ? entryOf(paths[i]!, files[i]!.source, size, mtimeMs, o.kind === 'candidate' ? o.candidate : null, o.kind === 'skip' ? o.reason : null, totalsOf(o.state)) : null;
    return { path: paths[i]!, entry, ...(o.state ? { state: o.state } : {}) };
  });
}

/** How far a scan is: files read so far out of the files it has to read, per tool. */
export interface ScanProgress {
  source: AgentSource;
  done: number;
  total: number;
}

export interface IndexedScan {
  /** Candidates only (files left out are counted in stats), in discovery order. */
  entries: IndexEntry[];
  stats: ScanStats;
}

/** A file the scan read, settled: its index entry (null when it lists nothing), not its digest. */
interface Settled {
  entry: IndexEntry | null;
  read: boolean;
  /** Indexed with its digest (the entry was made from it). */
  hasDigest: boolean;
  skip: string | null;
}

function settle(o: Outcome, file: FoundFile, stat: ImportStat | Error, texts: EntryTexts): Settled {
  const skip = o.kind === 'skip' ? o.reason : null;
  const candidate = o.kind === 'candidate' ? o.candidate : null;
  // Only files with a digest are indexed: the others (unreadable, compressed, empty) cost a stat.
  let entry: IndexEntry | null = null;
  if (o.state && !(stat instanceof Error)) entry = entryOf(file.path, file.source, stat.size, stat.mtimeMs, candidate, skip, totalsOf(o.state), texts);
  else if (candidate) entry = entryOf(file.path, file.source, stat instanceof Error ? 0 : stat.size, stat instanceof Error ? 0 : stat.mtimeMs, candidate, null, NO_TOTALS, texts);
  return { entry, read: o.read, hasDigest: o.state !== undefined && entry !== null, skip };
}

/** A settled file in the scan's counts: read or cached, and why it is skipped. */
function countSettled(stats: ScanStats, s: Settled): void {
  if (s.read) stats.parsed += 1;
  else if (s.hasDigest) stats.cached += 1;
  countSkip(stats, s.skip);
}

/** A file left out of the candidates, counted with its reason (null: not skipped). */
function countSkip(stats: ScanStats, skip: string | null): void {
  if (skip === null) return;
  stats.skipped += 1;
  stats.skippedReasons[skip] = (stats.skippedReasons[skip] ?? 0) + 1;
}

function addEntryTotals(stats: ScanStats, totals: EntryTotals): void {
  stats.tornLines += totals[0];
  stats.unknownTypes += totals[1];
  stats.danglingParents += totals[2];
  stats.compactions += totals[3];
}

/**
 * The totals of a file that counted nothing: almost every file's. One shared array: a cold scan
 * holds every entry to its end, and 100,000 arrays of four zeros were ~5 MB of its live heap
 * (bench/README.md, issue 15, eleventh sitting).
 */
const NO_TOTALS: EntryTotals = Object.freeze([0, 0, 0, 0] as const);

function totalsOf(state: FileState | undefined): EntryTotals {
  if (!state) return NO_TOTALS;
  const d = state.digest;
  const torn = d.brokenLines + (d.tornTail ? 1 : 0);
  if (torn === 0 && d.unknownTypes === 0 && d.danglingParents === 0 && d.compactions === 0) return NO_TOTALS;
  return [torn, d.unknownTypes, d.danglingParents, d.compactions];
}

function sameMeta(a: IndexMeta | undefined, b: IndexMeta): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An index the scan would write again as it is (same entries, same meta), stamped now instead: its
 * mtime says when it was written (readCandidateIndex), and only that made its folders racy. The
 * rewrite encoded the whole index again (a second 57 MB at 100,000 sessions). False, for a rewrite,
 * when the file is no longer the one read (another process replaced it since).
 */
async function restampIndex(indexFile: string, writtenAt: number): Promise<boolean> {
  const now = await fsp.stat(indexFile).catch(() => null);
  if (now?.mtimeMs !== writtenAt) return false;
  const stamp = new Date();
  await fsp.utimes(indexFile, stamp, stamp);
  return true;
}

/** The index entry still describes this file: same size, mtime and tool. */
export function unchanged<E extends IndexedFile>(entry: E | undefined, file: FoundFile, stat: ImportStat | Error): entry is E {
  return entry !== undefined && !(stat instanceof Error) && stat.isFile && !file.compressed && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs && entry.source === file.source;
}

/**
 * The order a cold scan reads in: the newest SCAN_READ_BATCH files of both tools first (a host
 * lists the newest SCAN_FIRST_ROWS of them after its first batch, and the UI's first page is the
 * newest), then the rest Claude first, then Codex, newest first within each, so progress reads
 * "Reading Claude Code sessions… n / N" and then Codex. Sorts `toRead` (indexes into `files`) in place.
 */
export function readOrder(toRead: number[], files: readonly FoundFile[], stats: ReadonlyArray<ImportStat | Error>): void {
  // Looked up once per file, not in the comparator (called ~15 times per file): at 20,000 files
  // the two comparator sorts took 94-120 ms of the host's thread before its first rows (load 16).
  const mtimes = new Float64Array(files.length);
  for (const i of toRead) {
    const s = stats[i]!;
    mtimes[i] = s instanceof Error ? 0 : s.mtimeMs;
  }
  // Ties keep discovery order, so the order is the same from one scan to the next.
  toRead.sort((a, b) => mtimes[b]! - mtimes[a]! || a - b);
  // The rest is newest first already: split by tool in one pass, Claude first, keeping that order.
  const codex: number[] = [];
  let k = SCAN_READ_BATCH;
  for (let j = SCAN_READ_BATCH; j < toRead.length; j++) {
    const i = toRead[j]!;
    if (files[i]!.source === 'claude') toRead[k++] = i;
    else codex.push(i);
  }
  for (const i of codex) toRead[k++] = i;
}

/** The newest SCAN_FIRST_ROWS of `candidates` (indexes into `files`, all stat'ed), newest first. */
function newestOf(candidates: readonly number[], files: readonly FoundFile[], stats: ReadonlyArray<ImportStat | Error>): number[] {
  const sorted = [...candidates];
  readOrder(sorted, files, stats);
  return sorted.slice(0, SCAN_FIRST_ROWS);
}

/** Moves `head` (indexes held by `toRead`) to the front of `toRead`, in its order; the others keep theirs. */
function putFirst(toRead: number[], head: readonly number[]): void {
  const inHead = new Set(head);
  const others = toRead.filter((i) => !inHead.has(i));
  head.forEach((i, k) => (toRead[k] = i));
  others.forEach((i, k) => (toRead[head.length + k] = i));
}

/**
 * The scan behind every listing. Warm, it answers from the compact candidate index
 * (candidate-index.ts) and never parses the full digest cache; that cache is read only when a
 * known file changed (to continue it from where the last scan stopped).
 */
export async function scanCandidateIndex(options: ScanOptions = {}): Promise<IndexedScan> {
  const reader = options.reader ?? nodeImportReader;
  const index = options.source === undefined ? await readCandidateIndex(options.cacheFile ? candidateIndexFileFor(options.cacheFile) : undefined, { resident: true }) : null;
  const quick = index ? await quickIndexScan(reader, index) : null;
  if (quick) return quick;
  return (await scanCandidateIndexFull({ ...options, loaded: index })).scan;
}

type FullScanOptions = ScanOptions & {
  onProgress?: (p: ScanProgress) => void;
  /**
   * A long scan's candidates so far, redacted, at most every PARTIAL_INTERVAL_MS (each call
   * adds to the previous ones): a host on a fresh data directory shows rows before the end.
   */
  onPartial?: (added: IndexEntry[]) => void;
  loaded?: Awaited<ReturnType<typeof readCandidateIndex>>;
};

/** scanCandidateIndex, plus what a resident holder (the host) keeps: skip entries and fresh digests. */
export async function scanCandidateIndexFull(options: FullScanOptions = {}): Promise<{ scan: IndexedScan; indexed: IndexEntry[] }> {
  const started = performance.now();
  markPhase('scan-start');
  // Discovery's arrays (100,000 found files, their stats, the known entries by path) end with
  // readAndSettle, before the index is encoded: held to the end, they were alive at the peak of
  // a rewrite at 100,000 sessions (bench/README.md, issue 15, ninth sitting).
  const { next, indexed, meta, stats, changed, loadedIndex, indexFile, digests, unfinished } = await readAndSettle(options);
  // Written again also when its folders were too fresh to trust at its last writing: stamped now, they may be.
  const racy = indexFile !== undefined && loadedIndex !== null && hasRacyFolders(loadedIndex);
  const rewrite = changed || !sameMeta(loadedIndex?.meta, meta) || (racy && !(await restampIndex(indexFile, loadedIndex.writtenAt)));
  if (options.cacheFile && rewrite) await persistScan(options.cacheFile, indexed, meta, digests);
  if (unfinished) await unfinished.abort();
  if (indexFile && options.cacheFile) await markCandidateIndexVerified(indexFile); // quick scans may trust it again
  markPhase('scan-saved');
  stats.ms = Math.round(performance.now() - started);
  return { scan: { entries: next.filter((e) => e.skip === null), stats }, indexed };
}

/** What a full scan read and settled, and what it still has to write. */
interface SettledScan {
  /** Every file's entry (skips included), in discovery order. */
  next: IndexEntry[];
  /** The entries the index is to hold: those with a digest. */
  indexed: IndexEntry[];
  meta: IndexMeta;
  stats: ScanStats;
  /** The entries differ from the loaded index's (or there was none). */
  changed: boolean;
  loadedIndex: { meta: IndexMeta; writtenAt: number } | null;
  indexFile: string | undefined;
  /** The digest cache to finish (the scan read new digests), else null. */
  digests: DigestRewrite | null;
  /** A digest cache begun but not to be finished (nothing read changed it). */
  unfinished: ScanCacheWriter | null;
}

/** Discovers, stats and reads every session file (scanCandidateIndexFull's first part). */
async function readAndSettle(options: FullScanOptions): Promise<SettledScan> {
  const counted = byteCountingReader(options.reader ?? nodeImportReader);
  const reader = counted.reader;
  const dirs = locateAgentDirs(options.env ?? process.env);
  const stats = emptyStats();
  const indexFile = options.cacheFile ? candidateIndexFileFor(options.cacheFile) : undefined;
  const loadedIndex = options.loaded !== undefined ? options.loaded : await readCandidateIndex(indexFile);
  const previous = loadedIndex?.entries ?? null;
  const known = new Map<string, IndexEntry>();
  for (const e of previous ?? []) known.set(e.path, e);
  const found = await discoverSessionFiles(reader, dirs, options.source);
  markPhase('scan-discovered');
  // The entries and the discovery's arrays stay alive through the whole read, among every file's garbage.
  // Only a host lists rows as it reads (onPartial), and it keeps the entries for its life.
  limitScanHeapGrowth(found.files.length, options.onPartial !== undefined);
  // A cold scan (no index) of many files: every file found is new, so the workers start now and
  // load while the files are stat'ed. The first batch is still read here: workers reniced behind a
  // page (SCAN_WORKER_NICE) came back with it later than this thread did on a busy machine.
  // Not behind a page (onPartial): there the workers' loading competed with the page's own.
  const earlyPool = previous === null && !options.onPartial && options.pool === undefined && options.reader === undefined ? startPoolFor(found.files.length, options) : null;
  for (const [reason, n] of Object.entries(found.skipped)) stats.skippedReasons[reason] = n;
  stats.files = found.files.length;

  // locateAgentDirs gives absolute folders, so discovered paths are absolute already.
  const paths = found.files.map((f) => f.path);
  // Behind a page with nothing indexed (every file new), the first rows are picked before every
  // Codex file is stat'ed (first-rows.ts); the rest is stat'ed once they are listed, before the
  // scan's own workers start: nothing else needs every stat before.
  const twoStep = options.onPartial && previous === null && options.pool === undefined ? await statForFirstRows(reader, found.files, SCAN_FIRST_ROWS) : null;
  const fileStats = twoStep ? twoStep.stats : await statAll(reader, paths);
  markPhase('scan-stats');
  const next: IndexEntry[] = [];
  const toRead: number[] = [];
  for (let i = 0; i < found.files.length; i++) {
    const entry = known.get(paths[i]!);
    if (unchanged(entry, found.files[i]!, fileStats[i]!)) next.push(entry);
    else toRead.push(i);
  }
  // Counted over known paths only: a discovered file the index never held (an empty one) must not hide one that vanished.
  let knownFound = next.length;
  for (const i of toRead) if (known.has(paths[i]!)) knownFound += 1;
  const vanished = previous !== null && knownFound < known.size;
  // The full cache holds digests to continue grown files from; a file the index never saw has none.
  // A vanished file alone does not need it: the index is written without its entry, and its
  // digest stays until a scan that loads the cache anyway (persistScan keeps only the index's).
  // Loaded for it, the 80 MB cache of 100,000 sessions took a listing near 500 MB.
  const needCache = previous === null || toRead.some((i) => known.has(paths[i]!));
  const cache: ScanCache = needCache ? await loadScanCache(options.cacheFile) : emptyCache();
  const stateOf = stateLookup(cache);

  // What the end of the scan keeps of each file read (by position in toRead): its entry, and
  // whether it is indexed with its digest. Not an object per file: at 100,000 files those were
  // ~5 MB of the live heap at the read's end, its peak (bench/README.md, issue 15, eleventh sitting).
  const readEntries: Array<IndexEntry | null> = new Array(toRead.length);
  // Their texts, in chunks shared by the whole scan (entry-texts.ts).
  const texts = new EntryTexts(SCAN_TEXT_CHUNK_BYTES);
  const withDigest = new Uint8Array(toRead.length);
  let changed = vanished || previous === null;
  let digestsRead = false;
  // Written as the batches end, so no state is held to the end; only when the loaded cache can
  // complete it with the states of the files not read (see persistScan). Opened at the first
  // state, after the first batch's rows are listed.
  const digestFile = needCache ? options.cacheFile : undefined;
  let writer: ScanCacheWriter | null = null;
  const written = new Set<string>();
  if (twoStep) putFirst(toRead, newestOf(twoStep.stated, found.files, fileStats));
  else readOrder(toRead, found.files, fileStats);
  // Behind a page, the first batch is the first screen's worth: the first partial list waits for its files only.
  const firstBatch = options.onPartial ? SCAN_FIRST_ROWS : SCAN_READ_BATCH;
  const batches: number[][] = [];
  const batchFrom = (start: number): void => {
    for (let from = start, size = start === 0 ? firstBatch : SCAN_READ_BATCH; from < toRead.length; from += size, size = SCAN_READ_BATCH) batches.push(toRead.slice(from, from + size));
  };
  batchFrom(0);
  const files = found.files;
  let pool = options.pool ?? null;
  const isNew = new Uint8Array(files.length);
  let newFiles = 0;
  const countNew = (): void => {
    for (const i of toRead) if (isNewFile(files[i]!, fileStats[i]!, stateOf)) (isNew[i] = 1), newFiles++;
  };
  if (!twoStep) countNew();
  // Without a pool given, one of our own for a big cold scan (node:fs only: an injected reader is a test's).
  const startOwnPool = (): ScanPool | null => earlyPool ?? (pool === null && options.reader === undefined ? startPoolFor(newFiles, options) : null);
  // Behind a page (onPartial) it starts once the first rows are listed: two threads loading the
  // worker bundle competed for the two cores with the first batch and the page's own start.
  const deferPool = options.onPartial !== undefined && pool === null;
  let ownPool = deferPool ? null : startOwnPool();
  pool ??= ownPool;
  const poolBytes = { n: 0 };
  let pooled = pool ? summarizeInPool(pool, batches, files, fileStats, isNew, poolBytes, ownPool !== null) : null;
  // Every batch's task is queued: our own workers end as they run out of work, not at the read's end.
  ownPool?.retireWhenIdle();
  try {
    const totals = { claude: 0, codex: 0 };
    for (const i of toRead) totals[found.files[i]!.source] += 1;
    const done = { claude: 0, codex: 0 };
    let lastReport = 0;
    let lastPartial = 0;
    let partialFrom = 0;
    const breathe = timeSlicer(SCAN_SLICE_MS);
    for (let b = 0, from = 0; from < toRead.length; from += batches[b]!.length, b++) {
      const batchEnd = from + batches[b]!.length;
      const summarized = pooled ? await pooled.take(b) : null;
      const prefixes = summarized ? new Map<number, Buffer>() : await readSmallFiles(reader, batches[b]!, found.files, fileStats, stateOf);
      const batchOutcomes: Outcome[] = new Array(batchEnd - from);
      let cursor = from;
      const worker = async (): Promise<void> => {
        while (cursor < batchEnd) {
          await breathe();
          if (cursor >= batchEnd) break;
          const k = cursor++;
          const i = toRead[k]!;
          const source = found.files[i]!.source;
          batchOutcomes[k - from] = await scanOne(reader, files[i]!, fileStats[i]!, stateOf(paths[i]!), prefixes.get(i), summarized?.get(i));
          prefixes.delete(i);
          done[source] += 1;
          if (options.onProgress && (done[source] === totals[source] || performance.now() - lastReport >= PROGRESS_INTERVAL_MS)) {
            lastReport = performance.now();
            options.onProgress({ source, done: done[source], total: totals[source] });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, batchEnd - from) }, worker));
      // Redacted per batch (not once at the end) so a partial list shows nothing unredacted.
      const batchIdx = batches[b]!;
      await redactFreshStates(batchOutcomes, batchIdx.map((i) => found.files[i]!), batchIdx.map((i) => paths[i]!));
      markPhase('scan-first-batch');
      for (let k = from; k < batchEnd; k++) {
        const s = settle(batchOutcomes[k - from]!, files[toRead[k]!]!, fileStats[toRead[k]!]!, texts);
        countSettled(stats, s);
        readEntries[k] = s.entry;
        if (s.hasDigest) withDigest[k] = 1;
        if (s.hasDigest && s.read) changed = digestsRead = true;
      }
      if (options.onPartial && batchEnd < toRead.length && (partialFrom === 0 || performance.now() - lastPartial >= PARTIAL_INTERVAL_MS)) {
        lastPartial = performance.now();
        const fresh: IndexEntry[] = [];
        for (let k = partialFrom; k < batchEnd; k++) {
          const entry = readEntries[k];
          if (entry && entry.skip === null) fresh.push(entry);
        }
        // The unchanged entries of a previous index come with the first partial list.
        options.onPartial(partialFrom === 0 ? [...next.filter((e) => e.skip === null), ...fresh] : fresh);
        partialFrom = batchEnd;
      }
      if (b === 0 && twoStep) {
        // The other stats, then the files left in readOrder's order, batched again (the pool starts below).
        await twoStep.rest();
        markPhase('scan-stats-rest');
        const rest = toRead.slice(batchEnd);
        readOrder(rest, files, fileStats);
        rest.forEach((i, k) => (toRead[batchEnd + k] = i));
        batches.length = 1;
        batchFrom(batchEnd);
        countNew();
      }
      if (b === 0 && deferPool && batchEnd < toRead.length) {
        pool = ownPool = startOwnPool();
        pooled = pool ? summarizeInPool(pool, batches, files, fileStats, isNew, poolBytes, true) : null;
        ownPool?.retireWhenIdle();
      }
      // Final now (read and redacted): written to the digest cache while the workers parse on, and let go.
      for (let k = from; k < batchEnd && digestFile; k++) {
        const state = batchOutcomes[k - from]!.state;
        if (!state || withDigest[k] === 0) continue;
        writer ??= await openScanCacheWriter(digestFile);
        const path = paths[toRead[k]!]!;
        await writer.add(path, state);
        // Only a path the loaded cache has a state for: persistScan looks nothing else up. A cold scan's
        // cache is empty, and a Set of its 100,000 paths was ~3 MB at its peak (issue 15, thirteenth sitting).
        if (stateOf(path) !== undefined) written.add(path);
      }
      // Settled: the batch's discovery records are not read again (the pool copied what it needed when
      // it queued every batch), so they go now, not with the read's end, which is the cold scan's peak.
      for (let k = from; k < batchEnd; k++) releaseSettled(files, fileStats, toRead[k]!);
    }
  } catch (error) {
    await writer?.abort();
    throw error;
  } finally {
    if (ownPool) await ownPool.close();
  }
  markPhase('scan-read');

  // The index holds the unchanged entries (all of `next` so far) and the files read with a digest.
  const indexed = next.slice();
  for (let k = 0; k < toRead.length; k++) {
    const entry = readEntries[k];
    if (!entry) continue;
    next.push(entry);
    if (withDigest[k] === 1) indexed.push(entry);
  }
  // A known file that lost its digest (emptied, now unreadable) is a change too: its stale entry must leave the index.
  if (!changed && previous !== null && (indexed.length !== known.size || indexed.some((e) => known.get(e.path) !== e))) changed = true;
  for (const e of next) {
    if (known.get(e.path) === e) {
      stats.cached += 1;
      countSkip(stats, e.skip);
    }
    addEntryTotals(stats, e.totals);
  }
  const meta: IndexMeta = {
    folders: found.folders.map((f) => f.path),
    folderMtimes: found.folders.map((f) => f.mtimeMs),
    scope: options.source ?? 'all',
    unindexed: found.files.length - indexed.length,
    skipped: found.skipped,
  };
  stats.bytesRead = counted.bytes() + poolBytes.n;
  const loaded = loadedIndex ? { meta: loadedIndex.meta, writtenAt: loadedIndex.writtenAt } : null;
  const digests = writer && digestsRead ? { writer, written, loaded: stateOf } : null;
  return { next, indexed, meta, stats, changed, loadedIndex: loaded, indexFile, digests, unfinished: digestsRead ? null : writer };
}

/**
 * What a settled file's places in discovery's arrays hold (the same two objects for every file):
 * its FoundFile and ImportStat, 100,000 of each, were ~11 MB of a cold scan's live heap at the end
 * of its read (bench/README.md, issue 15, thirteenth sitting). Their fields throw when read: a
 * settled file's record read again is a bug to see, not a file of size -1.
 */
const SETTLED_FILE: FoundFile = Object.freeze({
  get source(): never {
    return settledRecordRead();
  },
  get path(): never {
    return settledRecordRead();
  },
  get compressed(): never {
    return settledRecordRead();
  },
});
const SETTLED_STAT: ImportStat = Object.freeze({
  get size(): never {
    return settledRecordRead();
  },
  get mtimeMs(): never {
    return settledRecordRead();
  },
  get isFile(): never {
    return settledRecordRead();
  },
});

function settledRecordRead(): never {
  throw new Error('scan: a settled file\'s discovery record was read again');
}

/** Lets a settled file's FoundFile and ImportStat go (SETTLED_FILE and SETTLED_STAT take their places). */
function releaseSettled(files: FoundFile[], stats: Array<ImportStat | Error>, i: number): void {
  files[i] = SETTLED_FILE;
  stats[i] = SETTLED_STAT;
}

/**
 * Lists every Claude Code and Codex CLI session as a resume candidate, newest first. With a
 * cacheFile, files whose (path, size, mtime) did not change are not opened at all, and a file that
 * only grew is continued from where the last scan stopped. Never throws for a bad log.
 */
export async function scanAgentSessions(options: ScanOptions = {}): Promise<ScanResult> {
  const { entries, stats } = await scanCandidateIndex(options);
  const candidates = entries.map((e) => e.candidate());
  candidates.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  return { candidates, stats };
}
