import type { HandoffStatsView } from '../../../../shared/ui-contract';
import { formatDuration } from '../../../../shared/format-duration';

/**
 * How long sessions lived on after an accepted handoff (design article §6): until the same
 * session's next handoff or resume, or its last activity when neither came.
 */
export function ResumedDurations({ value }: { value: HandoffStatsView['afterResumption'] }) {
  const max = Math.max(1, ...value.buckets.map((b) => b.count));
  return (
    <>
      <h2 className="section-title">Session durations after resumption</h2>
      {value.count === 0 ? (
        <p className="muted" data-testid="resumed-none">
          No accepted handoff yet.
        </p>
      ) : (
        <>
          <div className="stat-tiles" data-testid="resumed-durations">
            <div className="stat-tile" data-testid="resumed-p50">
              <span className="stat-value">{formatDuration(value.p50)}</span>
              <span className="stat-label">median (p50)</span>
              <span className="muted">
                over {value.count} accepted {value.count === 1 ? 'handoff' : 'handoffs'}
              </span>
            </div>
            <div className="stat-tile" data-testid="resumed-p95">
              <span className="stat-value">{formatDuration(value.p95)}</span>
              <span className="stat-label">p95</span>
            </div>
            <div className="stat-tile" data-testid="resumed-ends">
              <span className="stat-value">{value.byEnd['last-activity'] ?? 0}</span>
              <span className="stat-label">still open</span>
              <span className="muted">
                {value.byEnd.handoff ?? 0} ended by a handoff, {value.byEnd.resume ?? 0} by a resume
              </span>
            </div>
          </div>
          <ul className="stat-bars" data-testid="resumed-buckets">
            {value.buckets.map((bucket) => (
              <li key={bucket.label} className="stat-bar" data-bucket={bucket.label}>
                <span className="stat-bar-label">{bucket.label}</span>
                <span className="stat-bar-track" aria-hidden="true">
                  <span className="stat-bar-fill stat-fill-ok" style={{ width: `${(bucket.count / max) * 100}%` }} />
                </span>
                <span className="stat-bar-count">{bucket.count}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
