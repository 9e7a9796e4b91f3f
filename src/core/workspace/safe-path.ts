import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { WorkspaceErrorCode } from '../../shared/workspace.js';
import { WorkspaceError } from './errors.js';

/**
 * Resolves a repository-relative path under `root` for writing, refusing anything that could
 * land outside it: absolute paths, '..' segments, NUL bytes, the .git directory, and parent
 * directories that are symlinks leading elsewhere.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  const segments = path.split('/');
  const bad =
    path.length === 0 ||
    path.includes('\0') ||
    isAbsolute(path) ||
    path.includes('\\') ||
    segments.some((s) => s === '..' || s === '.' || s === '') ||
    segments[0]?.toLowerCase() === '.git';
  if (bad) throw new WorkspaceError(WorkspaceErrorCode.UNSAFE_PATH, `Refusing to write ${JSON.stringify(path)}: not a plain path inside the repository.`, path);
  const realRoot = await realpath(root);
  const abs = join(realRoot, ...segments);
  // The deepest existing parent must still be inside the root once symlinks are followed.
  let parent = dirname(abs);
  for (;;) {
    const real = await realpath(parent).catch(() => null);
    if (real !== null) {
      const rel = relative(realRoot, real);
      if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] === '.git') {
        throw new WorkspaceError(WorkspaceErrorCode.UNSAFE_PATH, `Refusing to write ${path}: ${parent} leads outside ${realRoot}.`, path);
      }
      return abs;
    }
    parent = dirname(parent);
  }
}
