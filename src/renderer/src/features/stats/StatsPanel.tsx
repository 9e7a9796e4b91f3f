import { useCallback } from 'react';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { formatMs, formatRate, sortedCategories } from './format-stats';
import { ResumedDurations } from './ResumedDurations';
import { RetentionSection } from './RetentionSection';

/** The handoff figures `baton stats` prints: success rate, outcomes by category, p50/p95 time, durations after resumption. */
export function StatsPanel() {
  const api = useApi();
  const load = useCallback(() => api.invoke('stats:get', {}), [api]);
  const stats = useRemote('stats:get', load);

  let body;
  if (stats.value === undefined) {
    body = stats.error !== undefined ? <ErrorState what="Could not load the handoff figures." error={stats.error} onRetry={stats.reload} /> : <Skeleton rows={2} label="Loading figures…" />;
  } else {
    const value = stats.value;
    const categories = sortedCategories(value.byCategory);
    const max = Math.max(1, ...categories.map(([, count]) => count));
    body = (
      <>
        <div className="stat-tiles">
          <div className="stat-tile" data-testid="stat-success">
            <span className="stat-value">{formatRate(value.successRate)}</span>
            <span className="stat-label">success rate</span>
            <span className="muted">
              {value.succeeded} of {value.total} handoffs
            </span>
          </div>
          <div className="stat-tile" data-testid="stat-p50">
            <span className="stat-value">{formatMs(value.totalMs.p50)}</span>
            <span className="stat-label">median time (p50)</span>
          </div>
          <div className="stat-tile" data-testid="stat-p95">
            <span className="stat-value">{formatMs(value.totalMs.p95)}</span>
            <span className="stat-label">p95 time</span>
          </div>
        </div>
        <h2 className="section-title">Outcomes by category</h2>
        {categories.length === 0 ? (
          <p className="muted" data-testid="stat-none">
            No handoffs yet. Run <code>baton handoff</code> from a terminal.
          </p>
        ) : (
          <ul className="stat-bars" data-testid="stat-categories">
            {categories.map(([category, count]) => (
              <li key={category} className="stat-bar" data-category={category}>
                <span className="stat-bar-label">{category}</span>
                <span className="stat-bar-track" aria-hidden="true">
                  <span className={`stat-bar-fill stat-fill-${category === 'accepted' || category === 'duplicate' ? 'ok' : 'other'}`} style={{ width: `${(count / max) * 100}%` }} />
                </span>
                <span className="stat-bar-count">{count}</span>
              </li>
            ))}
          </ul>
        )}
        {value.verifyMismatches > 0 && (
          <p className="notice" role="note" data-testid="stat-mismatches">
            {value.verifyMismatches} {value.verifyMismatches === 1 ? 'offer was' : 'offers were'} refused here because the files on disk differed from the manifest.
          </p>
        )}
        <ResumedDurations value={value.afterResumption} />
        <RetentionSection />
      </>
    );
  }
  return (
    <section className="panel stats-panel" data-testid="stats-panel" aria-labelledby="stats-title">
      <header className="panel-header">
        <h1 id="stats-title">Handoff figures</h1>
        <button type="button" className="button-link" onClick={stats.reload}>
          Refresh
        </button>
        <span className="muted">The same figures as <code>baton stats</code>.</span>
      </header>
      {body}
    </section>
  );
}
