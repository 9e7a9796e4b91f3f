import { createHash } from 'node:crypto';
import { gitFailed } from './errors.js';
import { runGit, streamGit } from './git.js';
import { runGitBatch } from './git-batch.js';
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
  const collector = patchCollector(maxBytes);
  const result = await streamGit(root, patchArgs(head), collector.add, { env });
  if (result.code !== 0) throw gitFailed('diff --binary', root, result.stderr);
  return collector.done();
}

/**
 * The changed files (listDiff) and, when asked, the patch (capturePatch), from one child process
 * (git-batch.ts): the two diffs run side by side as before, for one fork of this process.
 */
export async function listAndCapturePatch(
  root: string,
  head: string | null,
  env: Record<string, string>,
  options: { patch: boolean; maxBytes?: number },
): Promise<{ entries: DiffEntry[]; patch: PatchCapture | null }> {
  const collector = patchCollector(options.maxBytes ?? PATCH_MAX_BYTES);
  const [listed, patched] = await runGitBatch(
    root,
    [{ args: [...diffArgs(head), '-z', '--raw', '--numstat'] }, ...(options.patch ? [{ args: patchArgs(head), onStdout: collector.add }] : [])],
    { env },
  );
  if (listed!.code !== 0) throw gitFailed('diff --raw', root, listed!.stderr);
  if (patched && patched.code !== 0) throw gitFailed('diff --binary', root, patched.stderr);
  return { entries: parseRawNumstatZ(listed!.stdout.toString('utf8')), patch: patched ? collector.done() : null };
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

function patchArgs(head: string | null): string[] {
  return [
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
}
