import { shellQuote } from './agents.js';

/**
 * A session that came from a remote box through `baton ssh` (issue 22). The desktop stamps
 * session.json with `sshFrom` when it lands the session's content; the host name is the one the
 * laptop's user gave `baton ssh`, never one the remote claims. Pure: read by core and renderer.
 */
export interface SshOrigin {
  host: string;
  receivedAt: string;
}

/** The `sshFrom` stamp of a session document, or null when it did not come over SSH. */
export function sshOriginOf(session: unknown): SshOrigin | null {
  const value = (session as { sshFrom?: { host?: unknown; receivedAt?: unknown } } | null)?.sshFrom;
  if (!value || typeof value.host !== 'string' || value.host.length === 0) return null;
  return { host: value.host, receivedAt: typeof value.receivedAt === 'string' ? value.receivedAt : '' };
}

/**
 * What the desktop cannot do for a session whose workspace lives on a remote box, each with the
 * reason shown instead of a failure. The diff comes from the patch the handoff carried.
 */
export const REMOTE_SESSION_LIMITS: ReadonlyArray<{ action: string; why: string }> = [
  { action: 'Open files in the workspace', why: 'the files are on the remote box; the diff shown comes from the patch the handoff carried' },
  { action: 'Watch the workspace for changes', why: 'the laptop cannot watch a remote filesystem' },
  { action: 'Rehydrate the workspace here', why: 'only when this laptop has the same repository (same origin), found by the moved-directory search' },
  { action: 'Stop background tasks', why: 'the processes run on the remote box' },
];

/**
 * `ssh HOST -t 'cd DIR && COMMAND'`: continues the session in its terminal on the remote box. The
 * inner line is quoted once for the remote shell, the whole once more for the local one.
 */
export function sshResumeLine(host: string, cwd: string, command: string): string {
  return `ssh ${shellQuote(host)} -t ${shellQuote(`cd ${shellQuote(cwd)} && ${command}`)}`;
}
