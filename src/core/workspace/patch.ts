import { createHash } from 'node:crypto';
import { gitFailed } from './errors.js';
import type { GitResult } from './git.js';
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
function diffArgs(head: string | null, against: DiffAgainst): string[] {
  const args = ['diff', ...(against === 'index' ? ['--cached'] : []), '--find-renames', '--ignore-submodules=all', '--no-ext-diff', '--no-textconv', '--no-relative'];
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
 * hashed while it streams, kept only up to maxBytes), from one child process (git-batch.ts): the
 * two diffs run side by side, for one fork of this process.
 * The calls go into a batch that may run more (temp-index.ts runs `add` before them).
 */
export function listAndPatchRun(root: string, head: string | null, options: PatchOptions): { calls: GitCall[]; finish: (results: GitResult[]) => ListedPatch } {
  const collector = patchCollector(options.maxBytes ?? PATCH_MAX_BYTES);
  const against = options.against ?? 'index';
  return {
    calls: [{ args: [...diffArgs(head, against), '-z', '--raw', '--numstat'] }, ...(options.patch ? [{ args: patchArgs(head, against), onStdout: collector.add }] : [])],
    finish([listed, patched]) {
      if (listed!.code !== 0) throw gitFailed('diff --raw', root, listed!.stderr);
      if (patched && patched.code !== 0) throw gitFailed('diff --binary', root, patched.stderr);
      return { entries: parseRawNumstatZ(listed!.stdout.toString('utf8')), patch: patched ? collector.done() : null };
    },
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

function patchArgs(head: string | null, against: DiffAgainst): string[] {
  return [
    ...diffArgs(head, against),
    '--binary',
    '--full-index',
    '--no-color',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--diff-algorithm=myers',
    '--unified=3',
    '--inter-hunk-context=0',
  ];
}
