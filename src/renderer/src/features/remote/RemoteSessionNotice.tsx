import { REMOTE_SESSION_LIMITS, sshOriginOf } from '../../../../shared/ssh-origin';

/**
 * A session that came through `baton ssh` (issue 22): its workspace, processes and files are on
 * the remote box. Says so, and lists what this desktop cannot do for it, instead of letting those
 * actions fail. The diff still shows: it comes from the patch the handoff carried.
 */
export function RemoteSessionNotice({ session }: { session: unknown }) {
  const origin = sshOriginOf(session);
  if (origin === null) return null;
  return (
    <section className="notice" role="note" aria-label="Remote session" data-testid="remote-session-notice">
      <p>
        This session came from <strong data-testid="remote-host">{origin.host}</strong> over SSH. Its paths are paths on that machine.
      </p>
      <details>
        <summary>What cannot run on this computer</summary>
        <ul data-testid="remote-limits">
          {REMOTE_SESSION_LIMITS.map((limit) => (
            <li key={limit.action}>
              <strong>{limit.action}</strong>: {limit.why}.
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/** The header badge: "over SSH from HOST". */
export function SshBadge({ session }: { session: unknown }) {
  const origin = sshOriginOf(session);
  if (origin === null) return null;
  return (
    <span className="badge" data-testid="ssh-from" title={`Handed off through baton ssh from ${origin.host}`}>
      over SSH from {origin.host}
    </span>
  );
}
