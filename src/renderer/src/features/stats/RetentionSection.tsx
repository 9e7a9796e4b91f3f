import { useCallback } from 'react';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { formatBytes } from '../../../../shared/format-bytes';

/** Disk use per state (live, archived) and the largest sessions: the retention lines of `baton stats`. */
export function RetentionSection() {
  const api = useApi();
  const load = useCallback(() => api.invoke('retention:get', {}), [api]);
  const retention = useRemote('retention:get', load);
  const r = retention.value;
  if (r === undefined) return null;
  return (
    <>
      <h2 className="section-title">Disk use</h2>
      <div className="stat-tiles">
        <div className="stat-tile" data-testid="stat-live-bytes">
          <span className="stat-value">{formatBytes(r.live.bytes)}</span>
          <span className="stat-label">live</span>
          <span className="muted">{r.live.sessions} sessions</span>
        </div>
        <div className="stat-tile" data-testid="stat-archived-bytes">
          <span className="stat-value">{formatBytes(r.archived.bytes)}</span>
          <span className="stat-label">archived</span>
          <span className="muted">{r.archived.sessions} sessions</span>
        </div>
      </div>
      {r.largest.length > 0 && (
        <ol className="largest-sessions" data-testid="largest-sessions">
          {r.largest.map((s) => (
            <li key={s.id}>
              <span className="num">{formatBytes(s.bytes)}</span> {s.title || 'Untitled session'} <span className="muted">({s.state}, {s.messageCount} messages)</span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
