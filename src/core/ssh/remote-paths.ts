import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { RemoteApprovalContext } from '../../shared/approvals.js';
import { isAbsolutePath, isInside, normalizeAbsolute, resolvePath } from '../policy/paths.js';
import { MAX_SYMLINK_HOPS, realpathLongest } from '../policy/targets.js';
import { pathsOf } from '../policy/tool-shapes.js';
import { chooseWorkspaceRoot } from '../policy/workspace-root.js';
import { MAX_REMOTE_PATHS } from '../../shared/approvals.js';

/**
 * Run by the CLI on a remote box before it asks the laptop's desktop for an approval (issue 22):
 * the laptop cannot see this box's files, so each path of the tool call is resolved here (real
 * path, symlinks followed; a file not yet written resolves through its directory) and marked
 * inside or outside this box's workspace. A path that cannot be resolved here (a variable, a
 * `~user`, a directory we may not search, a symlink loop) is sent as null: the desktop rates it high.
 */
const DYNAMIC = /[$`]|^~[^/]/;

export function resolveHere(raw: string, cwd: string, home: string): string | null {
  if (DYNAMIC.test(raw)) return null;
  const abs = resolvePath(cwd, raw, home);
  if (!isAbsolutePath(abs)) return null;
  try {
    return normalizeAbsolute(realpathSync.native(abs));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null; // EACCES, ELOOP…: unknown
  }
  // Not there yet (a new file): its nearest existing ancestor must be searchable by us.
  let ancestor = dirname(abs);
  for (let i = 0; i < MAX_SYMLINK_HOPS * 8 && ancestor !== '/'; i++) {
    try {
      lstatSync(ancestor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
      ancestor = dirname(ancestor);
    }
  }
  return realpathLongest(abs);
}

export function resolveRequestHere(request: { input: Record<string, unknown>; cwd: string }, home: string = homedir()): RemoteApprovalContext {
  const cwd = isAbsolutePath(request.cwd) ? request.cwd : '/';
  const workspace = chooseWorkspaceRoot({ cwd, home });
  const paths = pathsOf(request.input).slice(0, MAX_REMOTE_PATHS).map((path) => {
    const resolved = resolveHere(path, cwd, home);
    return { path, resolved, inside: resolved !== null && isInside(resolved, workspace.root) };
  });
  return { workspaceRoot: workspace.root, home: realpathLongest(home), paths };
}
