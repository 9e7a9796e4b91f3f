import { realpath } from 'node:fs/promises';
import { gitLine, runGit } from './git.js';

export interface WorkspaceGit {
  root: string;
  remote: string | null;
  branch: string | null;
  head: string | null;
  /** Tracked files with changes (staged or not), repository-relative. */
  dirtyFiles: string[];
  untrackedFiles: string[];
}

export interface WorkspaceSnapshot {
  /** The working directory as a realpath. */
  cwd: string;
  git: WorkspaceGit | null;
}

/** Reads where the session works: cwd realpath and, inside a repository, its branch, HEAD and dirty files. */
export async function captureWorkspace(cwd: string): Promise<WorkspaceSnapshot> {
  const real = await realpath(cwd);
  const root = await gitLine(real, ['rev-parse', '--show-toplevel']);
  if (root === null) return { cwd: real, git: null };
  const [branch, head, remote, status] = await Promise.all([
    gitLine(real, ['symbolic-ref', '--quiet', '--short', 'HEAD']),
    gitLine(real, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    gitLine(real, ['config', '--get', 'remote.origin.url']),
    runGit(real, ['status', '--porcelain=v1', '-z', '--untracked-files=all']),
  ]);
  const { dirty, untracked } = parsePorcelainZ(status.stdout.toString('utf8'));
  return { cwd: real, git: { root: await realpath(root), remote, branch, head, dirtyFiles: dirty, untrackedFiles: untracked } };
}

/** `git status --porcelain=v1 -z`: "XY path\0", renames/copies followed by "\0origPath". */
export function parsePorcelainZ(text: string): { dirty: string[]; untracked: string[] } {
  const dirty: string[] = [];
  const untracked: string[] = [];
  const fields = text.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (!entry || entry.length < 4) continue;
    const xy = entry.slice(0, 2);
    const path = entry.slice(3);
    if (xy === '??') untracked.push(path);
    else if (xy !== '!!') dirty.push(path);
    if (xy[0] === 'R' || xy[0] === 'C') i++; // skip the original path of a rename or copy
  }
  return { dirty, untracked };
}
