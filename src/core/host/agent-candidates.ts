import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { CANDIDATE_INDEX_VERSION, candidateIndexFileFor, markCandidateIndexVerified, readCandidateIndex, type IndexEntry } from '../importers/candidate-index.js';
import { readCandidateFirstScreen, type FirstScreen } from '../importers/candidate-index-first-screen.js';
import { createFirstScreenHold } from './first-screen-hold.js';
import { checkIndex, type IndexCheck } from './confirm-index.js';
import { statsOf } from '../importers/index-stats.js';
import { updateIndex } from './update-index.js';
import { quickIndexScan } from '../importers/quick-scan.js';
import { nodeImportReader } from '../importers/reader.js';
import { sessionFileOf, type FoundFile } from '../importers/discover.js';
import { claudeProjectsDir, codexSessionsDir, locateAgentDirs } from '../importers/locate.js';
import { persistIndex, rescanFiles, scanCandidateIndexFull, type ScanProgress } from '../importers/scan.js';
import type { FileState } from '../importers/summarize-file.js';
import { forgetScanCacheMemo } from '../importers/scan-cache.js';
import type { ScanStats } from '../importers/types.js';
import { importersCacheFile } from '../paths.js';
import { watchFiles, type FileWatch } from '../watch/file-watcher.js';
import { watchTrees, type TreeWatch } from '../watch/tree-watcher.js';
import { markPhase } from '../perf/phase-trace.js';

/**
 * Watched changes are written to the index once the watches have been quiet this long: encoding the
 * index holds the event loop (1-2 s at 100,000 sessions), and a burst of changes (a file written,
 * then removed) must not meet it halfway.
 */
export const CANDIDATE_PERSIST_DELAY_MS = 2_000;
/** ... but at most this long after the first change not yet written: a busy session appends every second, and its watch is never quiet. */
export const CANDIDATE_PERSIST_MAX_DELAY_MS = 30_000;
/** After a watch broke, the next watch starts this long after the rescan (no tight loop on a broken folder). */
export const WATCH_RESTART_DELAY_MS = 5_000;
/** After a trusted quick start, the confirming scan starts this much later (the UI's first pages go first). */
export const CONFIRM_DELAY_MS = 1_500;
/**
 * With a first screen in the index, its whole read (the columns' parse: ~95 ms of one blocking step
 * at 20,000 sessions) waits until the UI's first page was answered from it, or this long, or a
 * caller needs every entry (current()). At load 6 on two cores a new page asked 1.1–2 s after the
 * host's services were up (bench/README.md, issue 15, sixteenth sitting): 1 s was too short.
 */
export const FIRST_SCREEN_HOLD_MS = 3_000;
/**
 * ... and begins this long after the last such answer: the page parses and paints its rows
 * meanwhile, and a reload right after is answered from the first screen too; read at once, the read and the sort
 * after it (~150–250 ms of the host's thread) ran beside the page's first render and held a
 * reload's first page (bench/README.md, issue 15, sixteenth sitting).
 */
export const FIRST_SCREEN_READ_AFTER_MS = 1_000;
/** ... and at most this long after the first of them (pages reloaded again and again still get the whole set). */
export const FIRST_SCREEN_MAX_AFTER_MS = 5_000;
/** A tool folder that did not exist is looked for again this often. */
export const MISSING_ROOT_CHECK_MS = 30_000;

export interface CandidateHealth {
  /** 'watching': changes arrive by watch; 'rescan': the watch broke and the set is rebuilt by scanning. */
  mode: 'starting' | 'watching' | 'rescan';
  watchedDirs: number;
  /** Why the last fallback to a rescan happened, and when. */
  lastTrouble: string | null;
  troubleAt: string | null;
  rescans: number;
  /** Files re-read one by one because a watch saw them change. */
  watchedUpdates: number;
  candidates: number;
}

export interface CandidateChange {
  added: number;
  updated: number;
  removed: number;
  /** True when the change came from a full rescan. */
  rescan: boolean;
}

export interface AgentCandidatesOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  onChange?: (change: CandidateChange) => void;
  onProgress?: (progress: ScanProgress) => void;
  debounceMs?: number;
  /** Changes per debounce window before a watch counts as overflowed (tree-watcher.ts MAX_PENDING_CHANGES). */
  maxPending?: number;
  /** Defaults to WATCH_RESTART_DELAY_MS. */
  restartDelayMs?: number;
  /** Defaults to CANDIDATE_PERSIST_DELAY_MS and CANDIDATE_PERSIST_MAX_DELAY_MS. */
  persistDelayMs?: number;
  persistMaxDelayMs?: number;
  /** Start from a trusted candidate index and confirm it behind (default true). */
  quickStart?: boolean;
  /** Defaults to CONFIRM_DELAY_MS. */
  confirmDelayMs?: number;
  /** Defaults to FIRST_SCREEN_HOLD_MS and FIRST_SCREEN_READ_AFTER_MS. */
  firstScreenHoldMs?: number;
  firstScreenReadAfterMs?: number;
}

/**
 * The host's resident resume candidates: one scan at start, then kept current by watching the
 * Claude Code and Codex session folders (a new or grown file is re-read alone, from where it
 * was left) and Baton's own index. A watch that fails or overflows falls back to a rescan and is
 * restarted; `health()` says which (shown by `baton doctor`).
 */
export function createAgentCandidates(options: AgentCandidatesOptions) {
  const env = options.env ?? process.env;
  const cacheFile = importersCacheFile(options.dataDir);
  const dirs = locateAgentDirs(env);
  let entries = new Map<string, IndexEntry>();
  /** Paths whose entry has no digest (compressed, unreadable): listed, never written to the index. */
  let unindexed = new Set<string>();
  const states = new Map<string, FileState>();
  let stats: ScanStats | null = null;
  let version = 0;
  let closed = false;
  let watches: TreeWatch[] = [];
  let indexWatch: FileWatch | null = null;
  let persistTimer: NodeJS.Timeout | null = null;
  /** When the oldest change not yet written to the index was applied. */
  let unsavedSince = 0;
  /** Index writes of watched changes, one after another, outside `serial` (see persistNow). */
  let persisting: Promise<void> = Promise.resolve();
  /** A full scan is running (it writes the index when done). */
  let scanning = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let rootTimer: NodeJS.Timeout | null = null;
  let queue: Promise<void> = Promise.resolve();
  /** The index a quick start answered from, until the confirming full scan takes it. */
  let startIndex: Awaited<ReturnType<typeof readCandidateIndex>> = null;
  /** The first scan is running and has listed the rows it read so far (agents:list answers them). */
  let partial = false;
  let firstRows!: () => void;
  const firstRowsListed = new Promise<void>((resolve) => (firstRows = resolve));
  /** The index's first screen (candidate-index-first-screen.ts), until its whole read replaced it with entries. */
  let screen: FirstScreen | null = null;
  /** A page was answered from `screen`: the page hears of the whole set when it is in (agents:changed). */
  let screenServed = false;
  /** The whole index read's wait for the first page's answer from `screen` (first-screen-hold.ts). */
  const hold = createFirstScreenHold({
    capMs: options.firstScreenHoldMs ?? FIRST_SCREEN_HOLD_MS,
    readAfterMs: options.firstScreenReadAfterMs ?? FIRST_SCREEN_READ_AFTER_MS,
    maxAfterMs: FIRST_SCREEN_MAX_AFTER_MS,
  });
  const health: CandidateHealth = { mode: 'starting', watchedDirs: 0, lastTrouble: null, troubleAt: null, rescans: 0, watchedUpdates: 0, candidates: 0 };

  /** Scans and updates run one at a time, in order. */
  const serial = (task: () => Promise<void>): Promise<void> => (queue = queue.then(task, task).catch((error: unknown) => console.error(`baton: candidate update failed: ${(error as Error).message}`)));

  /** A full scan writes the index itself; a write of watched changes waits for it, or it is skipped while one runs (persistNow). */
  async function fullScan(): Promise<void> {
    if (closed) return;
    await persisting;
    scanning = true;
    try {
      await scanAll();
    } finally {
      scanning = false;
    }
  }

  async function scanAll(): Promise<void> {
    const first = version === 0;
    const before = entries;
    // The first scan without a trusted index (a fresh data directory) lists its rows as it reads.
    const onPartial = first
      ? (added: IndexEntry[]) => {
          if (closed) return;
          for (const e of added) entries.set(e.path, e);
          partial = true;
          version += 1;
          health.candidates = entries.size;
          firstRows();
          options.onChange?.({ added: added.length, updated: 0, removed: 0, rescan: false });
        }
      : undefined;
    // The start's confirming scan reuses the index quickStart decoded (decoding it again held two 60 MB copies at 100,000).
    // Later scans read it resident too: the whole file held in memory was 57 MB at 100,000.
    const loaded = startIndex ?? (await readCandidateIndex(candidateIndexFileFor(cacheFile), { resident: true }));
    startIndex = null;
    let result: Awaited<ReturnType<typeof scanCandidateIndexFull>>;
    try {
      result = await scanCandidateIndexFull({ env, cacheFile, onProgress: options.onProgress, ...(onPartial ? { onPartial } : {}), loaded });
    } catch (error) {
      // A failed scan leaves the rows it had, no longer marked as still coming (no endless progress line).
      if (partial) {
        partial = false;
        version += 1;
        options.onChange?.({ added: 0, updated: 0, removed: 0, rescan: true });
      }
      throw error;
    }
    const wasPartial = partial;
    partial = false;
    // The resident entries replace the parsed digest cache a cold scan leaves memoized (80 MB at 100,000 sessions).
    forgetScanCacheMemo();
    const indexedPaths = new Set(result.indexed.map((e) => e.path));
    entries = new Map(result.indexed.map((e) => [e.path, e]));
    for (const e of result.scan.entries) entries.set(e.path, e);
    unindexed = new Set(result.scan.entries.filter((e) => !indexedPaths.has(e.path)).map((e) => e.path));
    states.clear();
    stats = result.scan.stats;
    version += 1;
    health.candidates = result.scan.entries.length;
    let added = 0;
    for (const path of entries.keys()) if (!before.has(path)) added += 1;
    // The first scan changes nothing anyone saw (agents:list waits for it), unless it listed rows as it read.
    if (!first || wasPartial) options.onChange?.({ added, updated: 0, removed: [...before.keys()].filter((p) => !entries.has(p)).length, rescan: true });
  }

  function schedulePersist(): void {
    if (closed) return;
    const now = Date.now();
    if (persistTimer) clearTimeout(persistTimer);
    else unsavedSince = now;
    const delay = Math.min(options.persistDelayMs ?? CANDIDATE_PERSIST_DELAY_MS, Math.max(0, unsavedSince + (options.persistMaxDelayMs ?? CANDIDATE_PERSIST_MAX_DELAY_MS) - now));
    persistTimer = setTimeout(() => {
      persistTimer = null;
      void persistNow();
    }, delay);
    persistTimer.unref();
  }

  /**
   * Writes the watched changes to the index. Not in `serial`: a change seen meanwhile is listed
   * without waiting for the write and fsync of the whole index (57 MB at 100,000 sessions). The
   * scans, which write the same file, wait for it first: the last rename must be the newest set.
   * While a full scan runs there is nothing to write: it re-reads every file and writes the index
   * after, and a change applied after it schedules its own write.
   */
  function persistNow(): Promise<void> {
    persisting = persisting
      // The index only: rewriting the digest cache would mean parsing it whole (80 MB at 100,000 sessions).
      .then(() => (scanning ? undefined : persistIndex(cacheFile, [...entries.values()].filter((e) => !unindexed.has(e.path)))))
      .catch((error: unknown) => console.error(`baton: writing the candidate index failed: ${(error as Error).message}`));
    return persisting;
  }

  async function applyChanged(paths: string[]): Promise<void> {
    const files: FoundFile[] = [];
    for (const path of paths) {
      const file = sessionFileOf(dirs, path);
      if (file) files.push(file);
    }
    if (files.length === 0) return;
    const updates = await rescanFiles(files, { env, cacheFile, states });
    if (updates === null) return fallBack('a session file is a symbolic link');
    const change: CandidateChange = { added: 0, updated: 0, removed: 0, rescan: false };
    for (const u of updates) {
      const had = entries.has(u.path);
      if (u.entry === null) {
        if (had) change.removed += 1;
        entries.delete(u.path);
        states.delete(u.path);
        unindexed.delete(u.path);
        continue;
      }
      if (had) change.updated += 1;
      else change.added += 1;
      entries.set(u.path, u.entry);
      if (u.state) {
        states.set(u.path, u.state);
        unindexed.delete(u.path);
      } else unindexed.add(u.path);
    }
    health.watchedUpdates += updates.length;
    health.candidates = [...entries.values()].filter((e) => e.skip === null).length;
    version += 1;
    options.onChange?.(change);
    schedulePersist();
  }

  /**
   * Paths the watches saw before the start's entries were in (the whole index read waits for the
   * UI's first page, up to seconds): applied then, not to the empty set. Applied early, a change
   * listed one candidate and its persist wrote that one-entry set over the whole index.
   */
  let seenBeforeStart: Set<string> | null = new Set();
  function onWatched(paths: string[]): void {
    if (seenBeforeStart) for (const path of paths) seenBeforeStart.add(path);
    else void serial(() => applyChanged(paths));
  }
  /** The start's entries are in (or the first scan, queued first, puts them in): the paths seen meanwhile are applied after. */
  function startEntriesIn(): void {
    const seen = seenBeforeStart;
    seenBeforeStart = null;
    if (seen && seen.size > 0) void serial(() => applyChanged([...seen]));
  }

  async function startWatches(): Promise<void> {
    // Counted before the watches start: a folder made after this is picked up by checkRoots.
    missingRoots = await countMissingRoots();
    const trees = [
      { root: claudeProjectsDir(dirs), depth: 1 },
      // sessions/YYYY/MM/DD: the rollouts sit three folders down.
      { root: codexSessionsDir(dirs), depth: 3 },
    ];
    watches = trees.map(({ root, depth }) =>
      watchTrees([root], (paths) => onWatched(paths), { depth, debounceMs: options.debounceMs, maxPending: options.maxPending, onTrouble: (reason) => fallBack(reason) }),
    );
    await Promise.all(watches.map((w) => w.ready));
    health.watchedDirs = watches.reduce((n, w) => n + w.dirs(), 0);
    if (health.mode !== 'rescan') health.mode = 'watching';
  }

  async function stopWatches(): Promise<void> {
    const old = watches;
    watches = [];
    await Promise.all(old.map((w) => w.close()));
  }

  function fallBack(reason: string): void {
    if (closed) return;
    health.mode = 'rescan';
    health.lastTrouble = reason;
    health.troubleAt = new Date().toISOString();
    health.rescans += 1;
    void stopWatches();
    void serial(fullScan);
    if (restartTimer) return;
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (closed) return;
      void startWatches().then(() => serial(fullScan)).then(() => {
        if (!closed && watches.length > 0) health.mode = 'watching';
      });
    }, options.restartDelayMs ?? WATCH_RESTART_DELAY_MS);
    restartTimer.unref();
  }

  /** A tool folder absent at start (the tool installed, or first run, later): watch and scan it once it exists. */
  let missingRoots = 0;
  const countMissingRoots = async () => (await Promise.all([claudeProjectsDir(dirs), codexSessionsDir(dirs)].map((d) => fsp.stat(d).then(() => 0, () => 1)))).reduce((a, b) => a + b, 0);
  /** One check at a time: a second caller that returned early while the first still restarted the watches would list the old set. */
  let rootCheck: Promise<void> | null = null;
  function checkRoots(): Promise<void> {
    rootCheck ??= checkRootsOnce().finally(() => (rootCheck = null));
    return rootCheck;
  }
  async function checkRootsOnce(): Promise<void> {
    if (missingRoots === 0 || closed) return;
    const now = await countMissingRoots();
    if (now >= missingRoots) return;
    missingRoots = now;
    await stopWatches();
    await startWatches();
    if (closed) return;
    await serial(fullScan);
  }

  /**
   * Starting from a trusted index (quick-scan.ts), the host answers at once; the full scan that
   * confirms it runs behind (listings do not wait for it) and reports what it corrected as a
   * change. Null when the index cannot be trusted: then the first full scan is what `ready` waits for.
   */
  async function quickStart(): Promise<boolean> {
    if (options.quickStart === false) return false;
    if (screen && !closed) await hold.wait();
    markPhase('candidates-index-read-start');
    // The first screen still answers while the read waits for the file (a private copy, then its reads).
    const index = await readCandidateIndex(candidateIndexFileFor(cacheFile), { resident: true });
    markPhase('candidates-index-read');
    try {
      return await startFromIndex(index);
    } finally {
      // From here agents:list answers from the entries (or waits for the scan), never the first screen;
      // until here a preview of a row the page shows still finds it in the screen.
      screen = null;
    }
  }
  async function startFromIndex(index: Awaited<ReturnType<typeof readCandidateIndex>>): Promise<boolean> {
    const quick = index ? await quickIndexScan(nodeImportReader, index) : null;
    if (index && !quick && !closed) {
      // An index too old (or written by watched changes) to trust: its rows are still the best
      // first screen. The UI gets them marked scanning until the full scan replaces them; the
      // CLI waits for that scan.
      entries = new Map(index.entries.map((e) => [e.path, e]));
      startIndex = index;
      partial = true;
      version += 1;
      health.candidates = index.entries.length;
      firstRows();
      return false;
    }
    if (!index || !quick || closed) return false;
    entries = new Map(index.entries.map((e) => [e.path, e]));
    startIndex = index;
    unindexed = new Set();
    stats = quick.stats;
    version += 1;
    health.candidates = quick.entries.length;
    // A page shown the first screen (marked scanning) fetches the whole list now.
    if (screenServed) options.onChange?.({ added: 0, updated: 0, removed: 0, rescan: false });
    return true;
  }
  let verifying = false;
  let confirmTimer: NodeJS.Timeout | null = null;
  /** Starts the deferred first scan now (a caller needs the whole list, or the host closes). */
  let scanNow: (() => void) | null = null;
  /** CONFIRM_DELAY_MS, or until scanNow(): the rows shown meanwhile come from the index. */
  const beforeFirstScan = (ms: number) =>
    new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        scanNow = null;
        resolve();
      };
      const timer = setTimeout(go, ms);
      scanNow = go;
    });
  /** The version a trusted quick start set. */
  let startVersion = -1;

  /**
   * After a start from the index (trusted or not): nothing changed (the usual case) costs a stat
   * per file and no rebuild; a few files changed (INCREMENTAL_MAX_CHANGED) are re-read alone and
   * the index rewritten from the resident entries, without the digest cache (80 MB parsed at
   * 100,000 sessions, 600 MB of the host's peak); anything else, the full scan.
   */
  async function confirmStart(): Promise<void> {
    const index = startIndex;
    // A watched change since the start: the resident set is no longer the index's, the full scan settles both.
    const untouched = () => version === startVersion && !closed;
    if (index && untouched()) {
      const check = await checkIndex(index, (path) => entries.get(path), { env });
      if (check.kind === 'unchanged' && !partial) {
        startIndex = null;
        await markCandidateIndexVerified(candidateIndexFileFor(cacheFile));
        return;
      }
      const changed: Extract<IndexCheck, { kind: 'changed' }> | null =
        check.kind === 'changed' ? check : check.kind === 'unchanged' ? { kind: 'changed', files: [], removed: [], meta: index.meta, total: index.entries.length } : null;
      const update = changed && untouched() ? await updateIndex(entries, unindexed, changed, { env, cacheFile, states, stillValid: untouched }) : null;
      if (update && changed) {
        startIndex = null;
        const wasPartial = partial;
        partial = false;
        for (const path of changed.removed) states.delete(path);
        for (const [path, state] of update.states) states.set(path, state);
        stats = statsOf(entries.values(), changed.meta.skipped, changed.total, update.states.size);
        version += 1;
        health.candidates = [...entries.values()].filter((e) => e.skip === null).length;
        if (wasPartial || update.added + update.updated + update.removed > 0) options.onChange?.({ added: update.added, updated: update.updated, removed: update.removed, rescan: true });
        return;
      }
    }
    await fullScan();
  }

  const ready = (async () => {
    // The first screen before the watches: a few small reads, and all the UI's first page needs.
    if (options.quickStart !== false) {
      markPhase('candidates-first-screen-start');
      screen = readCandidateFirstScreen(candidateIndexFileFor(cacheFile), CANDIDATE_INDEX_VERSION);
      markPhase('candidates-first-screen');
    }
    // Watch first, then scan: a file written during the scan is seen by one or the other.
    await startWatches();
    markPhase('candidates-watching');
    if (closed) return;
    const quick = await quickStart();
    startEntriesIn();
    if (quick) {
      markPhase('candidates-quick-start');
      verifying = true;
      startVersion = version;
      // Later, not at once: the UI's first pages are asked for right after a host starts, and
      // the confirm's stats (~100 ms of the event loop at 20,000 files) would be served between them.
      confirmTimer = setTimeout(() => {
        confirmTimer = null;
        void serial(confirmStart).then(() => {
          verifying = false;
        });
      }, options.confirmDelayMs ?? CONFIRM_DELAY_MS);
      confirmTimer.unref();
    } else {
      // An index too old to trust: its rows answer the UI (marked partial) and the scan that
      // replaces them waits like the confirm above, or its stats and the 16 MB cache write
      // would run between the page's first requests. A caller that needs every row (the CLI's
      // listing, current() without partialOk) starts it at once.
      if (partial && startIndex) await beforeFirstScan(options.confirmDelayMs ?? CONFIRM_DELAY_MS);
      startVersion = version;
      // An untrusted index is still confirmed file by file: a file added while no host ran changes a folder's mtime, not the rest.
      await serial(startIndex ? confirmStart : fullScan);
    }
    if (closed) return;
    // Baton's own index: an import or handoff by another process changes which candidates are listed.
    indexWatch = watchFiles([join(options.dataDir, 'index.json')], () => options.onChange?.({ added: 0, updated: 0, removed: 0, rescan: false }));
    rootTimer = setInterval(() => void checkRoots(), MISSING_ROOT_CHECK_MS);
    rootTimer.unref();
  })();



  return {
    /** Resolves once the first scan is done and the watches are up. */
    ready,
    /** Waits for the first scan, and picks up a tool folder that appeared since (two stats when one was missing). */
    async current(options: { partialOk?: boolean } = {}): Promise<void> {
      // A caller that needs entries: the index's whole read waits no longer.
      hold.end();
      if (options.partialOk) {
        await Promise.race([ready, firstRowsListed]);
        // A cold first scan's rows so far (partial() says the list is not complete yet); the CLI waits for all.
        if (partial) return;
      }
      scanNow?.();
      await ready;
      await checkRoots();
      // While the start's confirming scan runs, answer from the trusted index (it reports its corrections).
      if (!verifying) await queue;
    },
    /** Resolves when current({ partialOk: true }) would, without ending the whole read's wait for the first page (the order's prepare). */
    listed: (): Promise<void> => Promise.race([ready, firstRowsListed]),
    /** The index's first screen while its whole read has not replaced it (null after, or without one). */
    firstScreen: (): FirstScreen | null => screen,
    /** A page was answered from firstScreen(): the whole read starts FIRST_SCREEN_READ_AFTER_MS after the last such answer (or at once when a caller needs entries). */
    firstScreenServed(): void {
      screenServed = true;
      hold.answered();
    },
    /** Changes with every update; a listing rendered for one version can be reused until it moves. */
    version: () => version,
    /** True while the first scan runs and entries() holds only what it has read so far. */
    partial: () => partial,
    /** Candidates (not skipped files), in no particular order. */
    entries(): IndexEntry[] {
      return [...entries.values()].filter((e) => e.skip === null);
    },
    stats: () => stats,
    health: (): CandidateHealth => ({ ...health, watchedDirs: watches.reduce((n, w) => n + w.dirs(), 0) }),
    /** Rescans now (the UI's "Rescan" button): the watch keeps running. */
    rescan: () => {
      hold.end();
      scanNow?.();
      return serial(fullScan);
    },
    async close(): Promise<void> {
      closed = true;
      // Watched changes not yet written: write them now, or the next start re-reads those files.
      if (persistTimer) {
        clearTimeout(persistTimer);
        persistTimer = null;
        void persistNow();
      }
      if (restartTimer) clearTimeout(restartTimer);
      if (rootTimer) clearInterval(rootTimer);
      if (confirmTimer) clearTimeout(confirmTimer);
      hold.end();
      scanNow?.();
      // A scan in flight finishes (and writes its caches) before the host's folders go away.
      await ready.catch(() => undefined);
      await stopWatches();
      await indexWatch?.close();
      await queue;
      await persisting;
    },
  };
}
export type AgentCandidates = ReturnType<typeof createAgentCandidates>;
