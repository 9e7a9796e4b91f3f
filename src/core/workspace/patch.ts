import { createHash } from 'node:crypto';
import { gitFailed } from './errors.js';
import { runGit, streamGit } from './git.js';
import { parseRawNumstatZ, type DiffEntry } from './diff-list.js';

/** Past this size the patch is referenced by hash and size, not stored (the person is warned). */
export const PATCH_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Options every diff we take shares: the index (our temporary one) against HEAD, renames found,
 * submodules left out (listed separately, never descended), and none of the person's diff
 * settings (external diff, textconv, diff.relative) changing what we read.
 */
function diffArgs(head: string | null): string[] {
  const args = ['diff', '--cached', '--find-renames', '--ignore-submodules=all', '--no-ext-diff', '--no-textconv', '--no-relative'];
  return head ? [...args, head] : args; // an unborn branch diffs against the empty tree
}

export async function listDiff(root: string, head: string | null, env: Record<string, string>): Promise<DiffEntry[]> {
  const result = await runGit(root, [...diffArgs(head), '-z', '--raw', '--numstat'], undefined, { env });
  if (result.code !== 0) throw gitFailed('diff --raw', root, result.stderr);
  return parseRawNumstatZ(result.stdout.toString('utf8'));
}

export interface PatchCapture {
  sha256: string;
  size: number;
  /** null when the patch was larger than maxBytes. */
  bytes: Buffer | null;
}

/** What capturePatch gives for a diff with nothing in it. */
export function emptyPatch(): PatchCapture {
  return { sha256: createHash('sha256').digest('hex'), size: 0, bytes: Buffer.alloc(0) };
}

/** The binary-safe patch (`git diff --binary`), hashed while it streams; kept only up to maxBytes. */
export async function capturePatch(root: string, head: string | null, env: Record<string, string>, maxBytes = PATCH_MAX_BYTES): Promise<PatchCapture> {
  const hash = createHash('sha256');
  let chunks: Buffer[] | null = [];
  let size = 0;
  const args = [
    ...diffArgs(head),
    '--binary',
    '--full-index',
    '--no-color',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--diff-algorithm=myers',
    '--unified=3',
    '--inter-hunk-context=0',
  ];
  const result = await streamGit(
    root,
    args,
    (chunk) => {
      hash.update(chunk);
      size += chunk.length;
      if (chunks && size <= maxBytes) chunks.push(chunk);
      else chunks = null; // past the cap: keep hashing, stop keeping
    },
    { env },
  );
  if (result.code !== 0) throw gitFailed('diff --binary', root, result.stderr);
  return { sha256: hash.digest('hex'), size, bytes: chunks ? Buffer.concat(chunks, size) : null };
}
