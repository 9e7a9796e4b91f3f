import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { shellQuote, type TerminalCommand } from '../shared/agents.js';
import type { SessionDoc } from '../shared/session.js';
import { sshOriginOf, sshResumeLine } from '../shared/ssh-origin.js';
import { gitLine } from './workspace/git.js';

/** How many directories the moved-workspace search looks at, at most. */
const MOVED_SEARCH_MAX_DIRS = 400;

export interface CommandTarget {
  tool: 'claude' | 'codex' | 'baton';
  /** The id the tool resumes (the tool's own id for claude/codex, Baton's for baton). */
  id: string;
  cwd: string;
  /** Git root and origin URL recorded when the session was captured, for finding a moved workspace. */
  gitRoot?: string | null;
  remote?: string | null;
  /** The ssh destination of a session that came through `baton ssh`: its cwd is on that box. */
  sshHost?: string | null;
}

/** What `Continue in terminal` runs for a Baton session: the source tool's own resume when it came from one. */
export function commandTargetOf(session: SessionDoc): CommandTarget {
  const base = { cwd: session.cwd, gitRoot: session.gitRoot, remote: session.workspace?.git?.remote ?? null, sshHost: sshOriginOf(session)?.host ?? null };
  const tool = session.source.tool;
  if ((tool === 'claude' || tool === 'codex') && session.source.externalId) return { ...base, tool, id: session.source.externalId };
  return { ...base, tool: 'baton', id: session.id };
}

export function resumeCommandLine(tool: CommandTarget['tool'], id: string): string {
  if (tool === 'claude') return `claude --resume ${shellQuote(id)}`;
  if (tool === 'codex') return `codex resume ${shellQuote(id)}`;
  return `baton resume ${shellQuote(id)}`;
}

/**
 * The exact command that continues a session in its terminal tool, run in its real cwd. When that
 * directory is gone, looks for where it moved: a directory with the same root name whose git
 * origin matches the recorded one (among the places Baton knows and the old path's neighbours).
 */
export async function terminalCommandFor(target: CommandTarget, knownDirs: readonly string[] = []): Promise<TerminalCommand> {
  const command = resumeCommandLine(target.tool, target.id);
  if (target.sshHost) {
    // The workspace is on the remote box: never look for its path here. A clone of the same
    // repository on this machine (same origin, the moved-directory search) is reported as movedTo.
    const localClone = target.remote ? await findMovedWorkspace(target, knownDirs) : null;
    return { tool: target.tool, command, cwd: target.cwd, cwdExists: false, movedTo: localClone, shellLine: sshResumeLine(target.sshHost, target.cwd, command), sshHost: target.sshHost };
  }
  const cwdExists = await isDirectory(target.cwd);
  const movedTo = cwdExists ? null : await findMovedWorkspace(target, knownDirs);
  const runIn = movedTo ?? target.cwd;
  return { tool: target.tool, command, cwd: target.cwd, cwdExists, movedTo, shellLine: `cd ${shellQuote(runIn)} && ${command}` };
}

async function findMovedWorkspace(target: CommandTarget, knownDirs: readonly string[]): Promise<string | null> {
  const root = target.gitRoot ?? target.cwd;
  const name = basename(root);
  const inside = target.cwd.startsWith(root) ? target.cwd.slice(root.length) : '';
  const candidates = new Set<string>(knownDirs.filter((d) => basename(d) === name));
  for (const dir of await neighbourDirs(root)) if (basename(dir) === name) candidates.add(dir);
  for (const candidate of candidates) {
    if (candidate === root || !(await isDirectory(candidate))) continue;
    if (target.remote) {
      const remote = await gitLine(candidate, ['config', '--get', 'remote.origin.url']);
      if (remote !== target.remote) continue;
    }
    const moved = join(candidate, inside);
    return (await isDirectory(moved)) ? moved : candidate;
  }
  return null;
}

/** Children of the nearest existing ancestor of `path` and of that ancestor's parent. */
async function neighbourDirs(path: string): Promise<string[]> {
  let ancestor = dirname(path);
  while (ancestor !== dirname(ancestor) && !(await isDirectory(ancestor))) ancestor = dirname(ancestor);
  const found: string[] = [];
  for (const parent of [ancestor, dirname(ancestor)]) {
    for (const sibling of await listDirs(parent)) {
      if (found.length >= MOVED_SEARCH_MAX_DIRS) return found;
      found.push(sibling);
      for (const child of await listDirs(sibling)) if (found.length < MOVED_SEARCH_MAX_DIRS) found.push(child);
    }
  }
  return found;
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}
