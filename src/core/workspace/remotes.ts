import type { WorkspaceRemote } from '../../shared/workspace.js';
import { runGit, type GitResult } from './git.js';

/**
 * Removes credentials from a remote URL: "https://user:token@host/x" → "https://host/x". The
 * manifest and session.json must never carry a token that someone pasted into a remote.
 * scp-like "git@host:path" keeps its user name (it is not a secret, and ssh needs it).
 */
export function redactRemoteUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*@)?(.*)$/i.exec(url);
  if (!match) return url;
  return `${match[1]}${match[3]}`;
}

/** A remote's URL key, as a `git config --get-regexp` pattern. */
export const REMOTE_URL_KEY = 'remote\\..*\\.url';

/** The git command that lists the remotes (parseRemotes reads its answer). */
export const REMOTES_ARGS = ['config', '-z', '--get-regexp', `^${REMOTE_URL_KEY}$`];

/** Every `remote.<name>.url`, in config order, credentials removed. */
export async function readRemotes(root: string): Promise<WorkspaceRemote[]> {
  return parseRemotes(await runGit(root, REMOTES_ARGS));
}

/** The remotes in REMOTES_ARGS's answer (or CAPTURE_CONFIG_ARGS's). */
export function parseRemotes(result: GitResult): WorkspaceRemote[] {
  if (result.code !== 0) return []; // exit 1: no remote configured
  const remotes: WorkspaceRemote[] = [];
  for (const record of result.stdout.toString('utf8').split('\0')) {
    const newline = record.indexOf('\n');
    if (newline < 0) continue;
    const key = record.slice(0, newline);
    if (!key.startsWith('remote.') || !key.endsWith('.url')) continue; // the capture's call also reads line-ending settings (line-endings.ts)
    remotes.push({ name: key.slice('remote.'.length, -'.url'.length), url: redactRemoteUrl(record.slice(newline + 1)) });
  }
  return remotes;
}

/** The URL of origin, else of the first remote. */
export function primaryRemote(remotes: WorkspaceRemote[]): string | null {
  return (remotes.find((remote) => remote.name === 'origin') ?? remotes[0])?.url ?? null;
}
