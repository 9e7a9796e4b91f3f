import { chmod, lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WorkspaceErrorCode, type WorkspaceFile } from '../../shared/workspace.js';
import { WorkspaceError } from './errors.js';
import { readBlobs } from './git-objects.js';
import { runGit } from './git.js';

const SYMLINK_MODE = '120000';
const EXECUTABLE_MODE = '100755';

/** A wildmatch pattern that matches exactly `path` (git apply --include takes patterns). */
function literalPattern(path: string): string {
  return path.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

/**
 * The handed-off bytes of `files` (null for a deleted file): the HEAD blobs they started from,
 * with the stored patch applied in a scratch repository of our own. Nothing is written to the
 * person's repository or working tree; `repoRoot` is only read for the HEAD blobs.
 */
export async function handedOffContents(repoRoot: string, head: string | null, patch: Buffer, files: readonly WorkspaceFile[]): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  const wanted = files.filter((f) => {
    if (f.status === 'deleted') out.set(f.path, null);
    return f.status !== 'deleted';
  });
  if (wanted.length === 0) return out;
  const scratch = await mkdtemp(join(tmpdir(), 'baton-handed-off-'));
  try {
    const init = await runGit(scratch, ['init', '--quiet', '.']);
    if (init.code !== 0) throw new WorkspaceError(WorkspaceErrorCode.GIT_FAILED, `git init failed in ${scratch}: ${init.stderr.trim()}`, scratch);
    const needsPreimage = wanted.filter((f) => f.status !== 'added' && f.status !== 'untracked');
    if (needsPreimage.length > 0) {
      if (head === null) throw new WorkspaceError(WorkspaceErrorCode.UNBORN_HEAD, 'The handoff has no HEAD commit to start the changed files from.', repoRoot);
      const sources = needsPreimage.map((f) => f.oldPath ?? f.path);
      const blobs = await readBlobs(repoRoot, head, sources);
      for (const file of needsPreimage) {
        const source = file.oldPath ?? file.path;
        const blob = blobs.get(source);
        if (!blob) throw new WorkspaceError(WorkspaceErrorCode.HEAD_NOT_FOUND, `${head}:${source} is not in ${repoRoot}; fetch the handed-off commit first.`, source);
        await materialize(join(scratch, source), blob, file.oldMode);
      }
    }
    const includes = wanted.map((f) => `--include=${literalPattern(f.path)}`);
    const applied = await runGit(scratch, ['apply', '--binary', '--whitespace=nowarn', ...includes], patch);
    if (applied.code !== 0) {
      throw new WorkspaceError(WorkspaceErrorCode.PATCH_FAILED, `The stored patch does not apply to ${head ?? 'the empty tree'}: ${applied.stderr.trim().split('\n')[0] ?? ''}`, repoRoot);
    }
    for (const file of wanted) out.set(file.path, await readBack(join(scratch, file.path)));
    return out;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function materialize(path: string, blob: Buffer, mode: string | null): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (mode === SYMLINK_MODE) return symlink(blob.toString('utf8'), path);
  await writeFile(path, blob);
  if (mode === EXECUTABLE_MODE) await chmod(path, 0o755);
}

async function readBack(path: string): Promise<Buffer | null> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return Buffer.from(await readlink(path, { encoding: 'buffer' }));
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
