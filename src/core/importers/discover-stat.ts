import { discoverTool, joinDiscovered, toolsOf, type DiscoverResult } from './discover.js';
import { statAll, type ImportReader, type ImportStat } from './reader.js';
import type { AgentDirs, AgentSource } from './types.js';

export interface DiscoveredAndStated {
  found: DiscoverResult;
  /** Every found file's stat (or its error), in `found.files`' order. */
  stats: Array<ImportStat | Error>;
}

/**
 * A full scan's discovery and stats: the tools' folders listed side by side, then every file
 * stat'ed. A listing waits on the thread pool (getdents of a 10,000-file folder) with this thread
 * idle; one tool after the other, a cold scan waited for both in turn, and its worker, started
 * once every folder is listed, started that much later (bench/README.md, issue 15, sixteenth
 * sitting). The result is the sequential one: the tools' files, folders and skip reasons joined in
 * their order (joinDiscovered), each stat in its file's place.
 *
 * `onDiscovered` runs once every folder is listed, before the stats: what needs the number of files
 * only (the heap cap, the worker pool's start, whose loading overlaps the stats) starts there.
 *
 * Tried, not kept: each tool's files stat'ed as soon as its own folders were listed. The stats'
 * batches then took turns with the other tool's listing, one folder per batch, so the last folder
 * was listed (and the worker started) later than before: the worker's first answer came 140-260 ms
 * later in 5 of 5 pairs.
 */
export async function discoverAndStat(reader: ImportReader, dirs: AgentDirs, only: AgentSource | undefined, onDiscovered: (found: DiscoverResult) => void): Promise<DiscoveredAndStated> {
  const found = joinDiscovered(await Promise.all(toolsOf(only).map((tool) => discoverTool(reader, dirs, tool))));
  onDiscovered(found);
  return { found, stats: await statAll(reader, found.files.map((f) => f.path)) };
}
