import { createHash } from 'node:crypto';
import { gitFailed } from './errors.js';
import { GIT_MAX_BUFFER_BYTES, type GitResult } from './git.js';
import type { GitCall } from './git-batch.js';
import { parseRawNumstatZ, type DiffEntry } from './diff-list.js';

/** Past this size the patch is referenced by hash and size, not stored (the person is warned). */
export const PATCH_MAX_BYTES = 50 * 1024 * 1024;

/**
 * What HEAD is compared with: the temporary index once it holds the whole working tree
 * (temp-index.ts), or the working tree itself where nothing is untracked (work-tree-diff.ts).
 */
export type DiffAgainst = 'index' | 'work-tree';

/**
 * Options every diff we take shares: HEAD against the index (our temporary one) or the work tree,
 * renames found, submodules left out (listed separately, never descended), and none of the
 * person's diff settings (external diff, textconv, diff.relative) changing what we read.
 */
export function diffArgs(head: string | null, against: DiffAgainst): string[] {
  // The algorithm too: the list's line counts are the stored patch's (diff.algorithm would change both apart).
  const args = ['diff', ...(against === 'index' ? ['--cached'] : []), '--find-renames', '--ignore-submodules=all', '--no-ext-diff', '--no-textconv', '--no-relative', '--diff-algorithm=myers'];
  return head ? [...args, head] : args; // an unborn branch diffs against the empty tree (the index only)
}

export interface PatchCapture {
  sha256: string;
  size: number;
  /** null when the patch was larger than maxBytes. */
  bytes: Buffer | null;
}

/** The patch of a diff with nothing in it. */
export function emptyPatch(): PatchCapture {
  return { sha256: createHash('sha256').digest('hex'), size: 0, bytes: Buffer.alloc(0) };
}

export interface PatchOptions {
  patch: boolean;
  maxBytes?: number;
  /** Default 'index'. 'work-tree' needs a HEAD. */
  against?: DiffAgainst;
}

export interface ListedPatch {
  entries: DiffEntry[];
  patch: PatchCapture | null;
}

/**
 * The changed files (`--raw --numstat`) and, when asked, the binary-safe patch (`--binary`,
 * hashed while it streams, kept only up to maxBytes). With the patch, one git prints both: the
 * list, one NUL, then the patch, byte for byte what `git diff --binary` alone prints (git's
 * diff_flush: a separator line ends the list before the patch; with -z it is a NUL). One process
 * fewer than two side by side, and the tree is compared once. The calls go into a batch that
 * may run more (temp-index.ts runs `add` before them).
 */
export function listAndPatchRun(root: string, head: string | null, options: PatchOptions): { calls: GitCall[]; finish: (results: GitResult[]) => ListedPatch } {
  const against = options.against ?? 'index';
  const list = ['-z', '--raw', '--numstat'];
  if (!options.patch) {
    return {
      calls: [{ args: [...diffArgs(head, against), ...list] }],
      finish([listed]) {
        if (listed!.code !== 0) throw gitFailed('diff --raw', root, listed!.stderr);
        return { entries: parseRawNumstatZ(listed!.stdout.toString('utf8')), patch: null };
      },
    };
  }
  const collector = patchCollector(options.maxBytes ?? PATCH_MAX_BYTES);
  const split = listThenPatch(collector.add);
  return {
    calls: [{ args: [...patchArgs(head, against), ...list], onStdout: split.add }],
    finish([both]) {
      if (both!.code !== 0) throw gitFailed('diff --raw --binary', root, both!.stderr);
      const listed = split.list();
      if (listed === null) throw gitFailed('diff --raw --binary', root, 'its output has no end to the list of changed files before the patch');
      return { entries: parseRawNumstatZ(listed.toString('utf8')), patch: collector.done() };
    },
  };
}

/**
 * Splits `git diff -z --raw --numstat --binary`'s output as it streams: the list runs up to its
 * first empty NUL-terminated field (no field of the list is empty: a record or a path), which is
 * the separator; every byte after it is the patch, handed to `onPatch` untouched. git prints the
 * separator only after a list, so output that starts with a NUL is not its format. `list()`: the
 * list's bytes (with its last NUL), empty for an empty diff (git prints nothing), or null when
 * bytes came and no separator did, or a NUL came first (refused, never guessed).
 */
export function listThenPatch(onPatch: (chunk: Buffer) => void): { add: (chunk: Buffer) => void; list: () => Buffer | null } {
  const listChunks: Buffer[] = [];
  let listBytes = 0;
  let inPatch = false;
  let lastWasNul = false;
  let refused = false;
  return {
    add(chunk) {
      if (inPatch) return onPatch(chunk);
      if (listBytes === 0 && chunk[0] === 0) refused = true;
      if (refused) return;
      for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, at + 1)) {
        // A NUL right after the one ending the previous field (in this chunk or the last).
        if ((at === 0 && lastWasNul) || (at > 0 && chunk[at - 1] === 0)) {
          listChunks.push(chunk.subarray(0, at));
          listBytes += at;
          inPatch = true;
          if (at + 1 < chunk.length) onPatch(chunk.subarray(at + 1));
          return;
        }
      }
      listChunks.push(chunk);
      listBytes += chunk.length;
      // A list is a few bytes a changed file: one past a git output's own bound is not a list.
      if (listBytes > GIT_MAX_BUFFER_BYTES) refused = true;
      lastWasNul = chunk.length > 0 ? chunk[chunk.length - 1] === 0 : lastWasNul;
    },
    list: () => (refused ? null : inPatch || listBytes === 0 ? Buffer.concat(listChunks, listBytes) : null),
  };
}

/** Hashes every chunk of a patch and keeps them while the total stays within maxBytes. */
function patchCollector(maxBytes: number): { add: (chunk: Buffer) => void; done: () => PatchCapture } {
  const hash = createHash('sha256');
  let chunks: Buffer[] | null = [];
  let size = 0;
  return {
    add(chunk) {
      hash.update(chunk);
      size += chunk.length;
      if (chunks && size <= maxBytes) chunks.push(chunk);
      else chunks = null; // past the cap: keep hashing, stop keeping
    },
    done: () => ({ sha256: hash.digest('hex'), size, bytes: chunks ? Buffer.concat(chunks, size) : null }),
  };
}

export function patchArgs(head: string | null, against: DiffAgainst): string[] {
  return [
    ...diffArgs(head, against),
    '--binary',
    '--full-index',
    '--no-color',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--unified=3',
    '--inter-hunk-context=0',
  ];
}
