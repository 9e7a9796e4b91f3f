import { candidateFromState, candidateWithNote, ZST_NOTE } from './candidate.js';
import { messagesOf } from './digest.js';
import { discoverSessionFiles, type FoundFile } from './discover.js';
import { errnoOf } from './errors.js';
import { SCAN_CONCURRENCY } from './limits.js';
import { locateAgentDirs } from './locate.js';
import { nodeImportReader, statAll, type ImportReader, type ImportStat } from './reader.js';
import { emptyCache, loadScanCache, saveScanCache, type ScanCache } from './scan-cache.js';
import { summarizeFile, type FileState } from './summarize-file.js';
import { redactValue } from '../redact/redact-value.js';
import type { AgentSource, ImportedCandidate, ScanResult, ScanStats } from './types.js';

export interface ScanOptions {
  env?: NodeJS.ProcessEnv;
  /** JSON cache of per-file digests (Baton's own file, e.g. <data dir>/importers-cache.json). */
  cacheFile?: string;
  /** Only this tool's sessions. */
  source?: AgentSource;
  /** Injected for tests (counting, faults); defaults to node:fs. */
  reader?: ImportReader;
}

type Outcome =
  | { kind: 'candidate'; candidate: ImportedCandidate; state?: FileState; read: boolean }
  | { kind: 'skip'; reason: string; state?: FileState; read: boolean };

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

async function scanOne(reader: ImportReader, file: FoundFile, stat: ImportStat | Error, cached: FileState | undefined): Promise<Outcome> {
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
      state = (await summarizeFile(reader, file.source, file.path, stat, cached?.digest.source === file.source ? cached : undefined)).state;
      read = true;
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT') return { kind: 'skip', reason: 'vanished during the scan', read: true };
      const note = `Cannot be read (${code ?? (error instanceof Error ? error.message : 'error')}); check this file's permissions.`;
      return { kind: 'candidate', candidate: candidateWithNote(file.source, file.path, stat, note), read: true };
    }
  }
  // Claude Code leaves files holding only summaries or snapshots: nothing to resume.
  if (state.exact && messagesOf(state.digest) === 0) return { kind: 'skip', reason: 'no messages', state, read };
  return { kind: 'candidate', candidate: candidateFromState(file.source, file.path, state), state, read };
}

function addTotals(stats: ScanStats, state: FileState): void {
  const d = state.digest;
  stats.tornLines += d.brokenLines + (d.tornTail ? 1 : 0);
  stats.unknownTypes += d.unknownTypes;
  stats.danglingParents += d.danglingParents;
  stats.compactions += d.compactions;
}

/**
 * What a scan read for the first time is redacted before it is cached or shown: a title is the
 * first prompt, and a prompt may hold a key. One detector pass for the whole scan; a warm
 * rescan reads nothing new and pays nothing.
 */
async function redactFreshStates(outcomes: Outcome[], files: readonly FoundFile[], paths: readonly string[]): Promise<void> {
  const fresh = outcomes.flatMap((o, i) => (o.read && o.state ? [i] : []));
  if (fresh.length === 0) return;
  const { value } = await redactValue(fresh.map((i) => outcomes[i]!.state!));
  fresh.forEach((i, k) => {
    const o = outcomes[i]!;
    const state = value[k]!;
    if (state === o.state) return;
    outcomes[i] = o.kind === 'candidate' ? { ...o, state, candidate: candidateFromState(files[i]!.source, paths[i]!, state) } : { ...o, state };
  });
}

/**
 * Lists every Claude Code and Codex CLI session as a resume candidate, newest first. With a
 * cacheFile, files whose (path, size, mtime) did not change are not opened at all, and a file that
 * only grew is continued from where the last scan stopped. Never throws for a bad log.
 */
export async function scanAgentSessions(options: ScanOptions = {}): Promise<ScanResult> {
  const started = performance.now();
  const counted = byteCountingReader(options.reader ?? nodeImportReader);
  const reader = counted.reader;
  const dirs = locateAgentDirs(options.env ?? process.env);
  const stats = emptyStats();
  const cache: ScanCache = await loadScanCache(options.cacheFile);
  const next = emptyCache();
  const found = await discoverSessionFiles(reader, dirs, options.source);
  for (const [reason, n] of Object.entries(found.skipped)) stats.skippedReasons[reason] = n;
  stats.files = found.files.length;

  // locateAgentDirs gives absolute folders, so discovered paths are absolute already.
  const paths = found.files.map((f) => f.path);
  const fileStats = await statAll(reader, paths);
  const outcomes: Outcome[] = new Array(found.files.length);
  let cursor = 0;
  const worker = async (): Promise<void> => {
    while (cursor < found.files.length) {
      const i = cursor++;
      outcomes[i] = await scanOne(reader, { ...found.files[i]!, path: paths[i]! }, fileStats[i]!, cache.entries[paths[i]!]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, found.files.length) }, worker));

  await redactFreshStates(outcomes, found.files, paths);

  const candidates: ImportedCandidate[] = [];
  let changed = false;
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    const path = paths[i]!;
    if (o.read) stats.parsed += 1;
    else if (o.state) stats.cached += 1;
    if (o.state) {
      next.entries[path] = o.state;
      addTotals(stats, o.state);
      if (o.read) changed = true;
    }
    if (o.kind === 'skip') {
      stats.skipped += 1;
      stats.skippedReasons[o.reason] = (stats.skippedReasons[o.reason] ?? 0) + 1;
    } else candidates.push(o.candidate);
  }
  if (Object.keys(cache.entries).some((p) => !(p in next.entries))) changed = true;
  if (options.cacheFile && changed) await saveScanCache(options.cacheFile, next);
  candidates.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  stats.bytesRead = counted.bytes();
  stats.ms = Math.round(performance.now() - started);
  return { candidates, stats };
}
