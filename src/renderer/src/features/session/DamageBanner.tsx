import type { SessionDoc } from '../../../../shared/session';

export interface DamageBannerProps {
  damaged: SessionDoc['damaged'];
}

/**
 * Says that part of the session's log was damaged and skipped, and names the side file (inside
 * the session directory) that keeps each damaged range: nothing was cut, and the messages shown
 * are the ones Baton could verify.
 */
export function DamageBanner({ damaged }: DamageBannerProps) {
  if (!damaged || damaged.length === 0) return null;
  const places = damaged.length === 1 ? 'one place' : `${damaged.length} places`;
  return (
    <div className="notice notice-warn" role="alert" data-testid="damage-banner">
      <p>
        Part of this session's log was damaged in {places} and skipped. Nothing was cut: the damaged bytes are kept beside the log, and the messages
        below are the ones Baton could verify.
      </p>
      <ul>
        {damaged.map((d) => (
          <li key={d.sideFile}>
            {d.file ?? 'messages.jsonl'}
            {d.start !== undefined && d.end !== undefined ? ` bytes ${d.start}–${d.end}` : ''}: kept in <code>{d.sideFile}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
