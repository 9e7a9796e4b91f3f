import { sep } from 'node:path';
import type { FoundFile } from './discover.js';
import { statAll, type ImportReader, type ImportStat } from './reader.js';

/**
 * The stats after the first rows go this many at a time, each slice in its own turn of the event
 * loop: they run while the page asks for those rows, and each of the listing's file operations
 * (the session store's index, its folders) waits for one turn. By STAT_BATCH (256), at load 5 the
 * first answer waited 150 ms longer (fresh-timeline.ts, agents-list-candidates -> sorted).
 */
const REST_STAT_SLICE = 64;

export interface FirstRowsStats {
  /** Every file's stat, by index into the files; the Codex files not stat'ed yet are holes until `rest()`. */
  readonly stats: Array<ImportStat | Error>;
  /** The indexes stat'ed so far: the first rows are the newest of these. */
  readonly stated: readonly number[];
  /** Stats the files left (once the first rows are listed). */
  rest(): Promise<void>;
}

/**
 * The stats of a fresh scan behind a page (nothing indexed yet), in two steps: what its first rows
 * are picked from, then the rest once they are listed. Claude Code's file names carry no time, so
 * every Claude file is stat'ed first; a Codex rollout is named by its start
 * (`rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, in `sessions/YYYY/MM/DD/`), so only the
 * `count` newest-named are. The 10,000 other Codex stats (50-90 ms of the host's thread on this
 * machine, more with the page loading beside it) come after the first rows.
 *
 * A rollout resumed days after its start is newer than its name says: if it is not among the
 * newest-named, it comes with the next partial list instead of the first one. The list says it is
 * still scanning until every file is read, so no order or count is shown as final before.
 */
export async function statForFirstRows(reader: ImportReader, files: readonly FoundFile[], count: number): Promise<FirstRowsStats> {
  const codex: number[] = [];
  const stated: number[] = [];
  files.forEach((f, i) => (f.source === 'codex' ? codex.push(i) : stated.push(i)));
  // The name after the last separator (path.basename's checks cost ~10 ms over 10,000 paths at load 9).
  const names = codex.map((i) => files[i]!.path.slice(files[i]!.path.lastIndexOf(sep) + 1));
  const byName = codex.map((_, k) => k).sort((a, b) => (names[a]! < names[b]! ? 1 : names[a]! > names[b]! ? -1 : 0));
  for (const k of byName.slice(0, count)) stated.push(codex[k]!);
  const later = byName.slice(count).map((k) => codex[k]!);
  const stats: Array<ImportStat | Error> = new Array(files.length);
  await statInto(reader, files, stated, stats);
  return {
    stats,
    stated,
    async rest() {
      for (let from = 0; from < later.length; from += REST_STAT_SLICE) await statInto(reader, files, later.slice(from, from + REST_STAT_SLICE), stats);
    },
  };
}

async function statInto(reader: ImportReader, files: readonly FoundFile[], indexes: readonly number[], into: Array<ImportStat | Error>): Promise<void> {
  const got = await statAll(reader, indexes.map((i) => files[i]!.path));
  indexes.forEach((i, k) => (into[i] = got[k]!));
}
