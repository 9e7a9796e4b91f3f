import { crc32 } from 'node:zlib';
import { candidateIndexPrefix, PREFIX_BYTES, SOURCE_CODES, type LayoutSource, type ReadLayout } from './candidate-index-layout.js';
import { parseColumns } from './candidate-index.js';
import { RESIDENT_LOAD_CHUNK_BYTES } from './index-file-source.js';
import type { AgentSource } from './types.js';

/** What a check of the files compares a found file with (scan.ts unchanged). */
export interface IndexedFile {
  source: AgentSource;
  size: number;
  mtimeMs: number;
}

/** An index's entries as far as a check walks them: an array of entries, or paths made on demand. */
export interface IndexedPaths {
  readonly length: number;
  [Symbol.iterator](): Iterator<{ path: string }>;
}

/**
 * Every file an index holds, by path, read from its columns alone: no entry object, no joined
 * path per file (the CLI's periodic check of every file, list-indexed.ts: decoding 100,000
 * entries and the whole file for it was most of a 307 MB peak).
 */
export interface IndexedFiles {
  entries: IndexedPaths;
  at(path: string): IndexedFile | undefined;
}

/**
 * The files of a read index; null when its columns do not decode or, read lazily, when the
 * file's bytes do not match its CRC (the columns are about to decide whether it is trusted).
 */
export function indexedFilesOf(layout: ReadLayout, source: LayoutSource): IndexedFiles | null {
  if (!source.whole && !restMatchesCrc(source)) return null;
  const columns = parseColumns(source.read(layout.columnsStart, layout.columnsEnd - layout.columnsStart).toString('utf8'), layout.count);
  if (!columns) return null;
  const { dirs, dirOf, names, sizes, mtimes } = columns;
  // By folder, then name: the columns' own strings are the keys.
  const byDir = new Map<string, Map<string, number>>(dirs.map((d) => [d, new Map()]));
  for (let i = 0; i < names.length; i++) {
    const dir = dirs[dirOf[i]!];
    const source = SOURCE_CODES[layout.sources[i]!];
    if (dir === undefined || source === undefined || typeof sizes[i] !== 'number' || typeof mtimes[i] !== 'number') return null;
    byDir.get(dir)!.set(names[i]!, i);
  }
  return {
    entries: {
      length: names.length,
      *[Symbol.iterator]() {
        for (let i = 0; i < names.length; i++) yield { path: dirs[dirOf[i]!]! + names[i]! };
      },
    },
    at(path) {
      const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
      const i = byDir.get(path.slice(0, cut))?.get(path.slice(cut));
      return i === undefined ? undefined : { source: SOURCE_CODES[layout.sources[i]!]!, size: sizes[i]!, mtimeMs: mtimes[i]! };
    },
  };
}

/** The file's bytes after the prefix against the prefix's CRC, read a chunk at a time (nothing kept). */
function restMatchesCrc(source: LayoutSource): boolean {
  const prefix = candidateIndexPrefix(source.read(0, PREFIX_BYTES));
  if (!prefix) return false;
  const chunk = Buffer.allocUnsafe(RESIDENT_LOAD_CHUNK_BYTES);
  let crc = 0;
  for (let at = PREFIX_BYTES; at < source.size; ) {
    const got = source.readInto ? source.readInto(at, chunk) : source.read(at, chunk.length).copy(chunk);
    if (got === 0) return false;
    crc = crc32(chunk.subarray(0, got), crc);
    at += got;
  }
  return crc === prefix.crc;
}
