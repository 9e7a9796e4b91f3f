import { useCallback, useState } from 'react';
import { toApiError } from '../../api';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatBytes } from '../../../../shared/format-bytes';

/**
 * Settings → Your data: where it lives, what it holds with sizes (the `baton purge --dry-run`
 * list), and the one-click cleanup behind a confirmation that names everything that goes.
 */
export function DataPanel() {
  const api = useApi();
  const load = useCallback(() => api.invoke('data:purge-plan', {}), [api]);
  const plan = useRemote('data:purge-plan', load);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const runPurge = (): void => {
    setBusy(true);
    api.invoke('data:purge', { confirmed: true }).then(
      (done) => {
        setBusy(false);
        setConfirming(false);
        setResult(`Removed ${done.removed} item${done.removed === 1 ? '' : 's'} (${formatBytes(done.bytes)}).`);
        plan.reload();
      },
      (e: unknown) => {
        setBusy(false);
        setConfirming(false);
        setResult(toApiError(e, 'data:purge').message);
      },
    );
  };

  let body;
  if (plan.value === undefined) body = plan.error !== undefined ? <ErrorState what="Could not list the data." error={plan.error} onRetry={plan.reload} /> : <Skeleton rows={3} label="Measuring…" />;
  else {
    const p = plan.value;
    body = (
      <>
        <p>
          Baton keeps its data in <code data-testid="data-dir">{p.dataDir}</code>. Nothing is ever deleted automatically.
        </p>
        {p.items.length === 0 ? (
          <p className="muted" data-testid="purge-empty">
            Nothing to remove: no sessions, archives, receipts, events or caches.
          </p>
        ) : (
          <table className="purge-table" data-testid="purge-items">
            <tbody>
              {p.items.map((item) => (
                <tr key={`${item.kind}:${item.name}`} data-kind={item.kind}>
                  <td>{item.kind}</td>
                  <td>{item.title ? `“${item.title}”` : <code>{item.name}</code>}</td>
                  <td className="num">{formatBytes(item.bytes)}</td>
                </tr>
              ))}
              <tr>
                <th colSpan={2}>Total</th>
                <td className="num" data-testid="purge-total">
                  {formatBytes(p.bytes)}
                </td>
              </tr>
            </tbody>
          </table>
        )}
        <p className="muted">Kept: {p.kept.join(', ')}.</p>
        <button type="button" className="button button-danger" data-testid="purge-open" disabled={p.items.length === 0} onClick={() => setConfirming(true)}>
          Remove all data…
        </button>
        {result !== null && (
          <p role="status" data-testid="purge-result">
            {result}
          </p>
        )}
        {confirming && (
          <ConfirmDialog tone="danger" title="Remove all of Baton's data?" confirmLabel={`Remove ${formatBytes(p.bytes)}`} busy={busy} testId="purge-dialog" onCancel={() => setConfirming(false)} onConfirm={runPurge}>
            <p>
              {p.items.filter((i) => i.kind === 'session').length} sessions, {p.items.filter((i) => i.kind === 'archived').length} archived sessions and {p.items.filter((i) => i.kind !== 'session' && i.kind !== 'archived').map((i) => i.name).join(', ') || 'nothing else'} — {formatBytes(p.bytes)} — go for good.
            </p>
          </ConfirmDialog>
        )}
      </>
    );
  }
  return (
    <section className="panel data-panel" data-testid="data-panel" aria-labelledby="data-title">
      <header className="panel-header">
        <h1 id="data-title">Your data</h1>
        <button type="button" className="button-link" onClick={plan.reload}>
          Refresh
        </button>
        <span className="muted">
          The same list as <code>baton purge --dry-run</code>.
        </span>
      </header>
      {body}
    </section>
  );
}
