import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isAbsolutePath, isInside, normalizeAbsolute } from './paths.js';
import { realpathLongest } from './targets.js';

/**
 * Which directory counts as "the workspace" for a tool call. The agent's cwd alone is not enough:
 * an agent that reports cwd=$HOME would make all of $HOME "inside". So the root comes from the
 * Baton session (its git root or cwd), else from the git repository around the agent's cwd, and
 * only as a last resort from the cwd itself, with a warning. A root of `/` or the home directory
 * is always a warning.
 */
export interface WorkspaceRootInput {
  /** The Baton session's root (its git root, else its cwd), when the request belongs to one. */
  sessionRoot?: string | null;
  /** The cwd the agent reports. */
  cwd: string;
  home?: string;
}

export interface WorkspaceRootChoice {
  /** Real absolute path. */
  root: string;
  source: 'session' | 'git' | 'cwd';
  /** Said to the person when the boundary is weak (cwd only, or `/`/home). */
  warning: string | null;
}

/** Directories climbed looking for `.git` before giving up. */
export const MAX_GIT_ROOT_DEPTH = 64;

/** The nearest ancestor of `start` (itself included) holding `.git` (a dir, or a worktree's file). */
export function findGitRoot(start: string): string | null {
  let dir = normalizeAbsolute(start);
  for (let i = 0; i < MAX_GIT_ROOT_DEPTH; i++) {
    if (existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

export function chooseWorkspaceRoot(input: WorkspaceRootInput): WorkspaceRootChoice {
  const home = realpathLongest(input.home ?? homedir());
  const cwd = isAbsolutePath(input.cwd) ? realpathLongest(input.cwd) : null;
  let root: string;
  let source: WorkspaceRootChoice['source'];
  if (input.sessionRoot && isAbsolutePath(input.sessionRoot)) {
    root = realpathLongest(input.sessionRoot);
    source = 'session';
  } else {
    const git = cwd ? findGitRoot(cwd) : null;
    if (git) {
      root = realpathLongest(git);
      source = 'git';
    } else {
      root = cwd ?? '/';
      source = 'cwd';
    }
  }
  let warning: string | null = null;
  if (root === '/' || isInside(home, root)) warning = `the workspace root is ${root}, ${root === '/' ? 'the whole disk' : 'your home directory or above it'}: writes anywhere there count as "inside"; Baton still rates sensitive paths high`;
  else if (source === 'cwd') warning = `no Baton session or git repository holds ${root}: the workspace boundary is the agent's cwd`;
  return { root, source, warning };
}
