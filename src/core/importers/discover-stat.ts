import { discoverTool, joinDiscovered, toolsOf, type DiscoverResult } from './discover.js';
import { statAll, type ImportReader, type ImportStat } from './reader.js';
import type { AgentDirs, AgentSource } from './types.js';

export interface DiscoveredAndStated {
  found: DiscoverResult;
  /** Every found file's stat (or its error), in `found.files`' order. */
  stats: Array<ImportStat | Error>;
}

/**
 * A full scan's discovery and stats, overlapped: the tools' folders are listed side by side and
 * each tool's files are stat'ed as soon as its folders are listed. A listing waits on the thread
 * pool (getdents of a 10,000-file folder) with this thread idle: a cold scan listed Claude's
 * folders, then Codex's, then stat'ed all 20,000 files, ~100 ms of it idle while its worker,
 * started at the discovery's end, waited for its first task (bench/README.md, issue 15, sixteenth
 * sitting). The result is the one the sequential steps gave: the tools' files, folders and skip
 * reasons joined in their order (joinDiscovered), each stat in its file's place.
 *
 * `onDiscovered` runs once every folder is listed, before the last stats: what needs the number of
 * files only (the heap cap, the worker pool's start) starts there, as it did after the discovery.
 */
export async function discoverAndStat(reader: ImportReader, dirs: AgentDirs, only: AgentSource | undefined, onDiscovered: (found: DiscoverResult) => void): Promise<DiscoveredAndStated> {
  const listed = toolsOf(only).map((tool) => discoverTool(reader, dirs, tool));
  // Stat'ed in batches that yield (statMany), so the other tool's listing goes on between them.
  const stated = listed.map((part) => part.then((d) => statAll(reader, d.files.map((f) => f.path))));
  // A failed listing is thrown below by `listed`; its stats' promise must not also go unhandled.
  for (const s of stated) s.catch(() => undefined);
  const found = joinDiscovered(await Promise.all(listed));
  onDiscovered(found);
  const parts = await Promise.all(stated);
  return { found, stats: parts.length === 1 ? parts[0]! : parts.flat() };
}
