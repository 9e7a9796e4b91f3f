import { useEffect, useState } from 'react';
import { toApiError } from '../../api';
import type { DeletePlanView } from '../../../../shared/lifecycle-contract';
import { useApi } from '../../hooks/api-context';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatBytes } from '../../../../shared/format-bytes';

type DeleteState = { kind: 'closed' } | { kind: 'loading' } | { kind: 'confirm'; plan: DeletePlanView } | { kind: 'deleting'; plan: DeletePlanView };

/**
 * Archive / Unarchive and Delete for the open session. Delete first shows what will go (messages,
 * size, receipts, and what holds the session), like `baton delete`; nothing goes without that confirmation.
 */
export function SessionLifecycleActions({ sessionId, archived, onDeleted }: { sessionId: string; archived: boolean; onDeleted?: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [del, setDel] = useState<DeleteState>({ kind: 'closed' });
  useEffect(() => {
    setError(null);
    setDel({ kind: 'closed' });
  }, [sessionId]);

  const fail = (channel: string) => (e: unknown) => setError(toApiError(e, channel).message);
  const toggleArchive = (): void => {
    setBusy(true);
    setError(null);
    (archived ? api.invoke('sessions:unarchive', { ids: [sessionId] }) : api.invoke('sessions:archive', { ids: [sessionId] })).then(
      () => setBusy(false),
      (e: unknown) => {
        setBusy(false);
        fail(archived ? 'sessions:unarchive' : 'sessions:archive')(e);
      },
    );
  };
  const askDelete = (): void => {
    setDel({ kind: 'loading' });
    api.invoke('sessions:delete-plan', { ids: [sessionId] }).then(
      ([plan]) => setDel(plan ? { kind: 'confirm', plan } : { kind: 'closed' }),
      (e: unknown) => {
        setDel({ kind: 'closed' });
        fail('sessions:delete-plan')(e);
      },
    );
  };
  const confirmDelete = (plan: DeletePlanView): void => {
    setDel({ kind: 'deleting', plan });
    api.invoke('sessions:delete', { ids: [sessionId], confirmed: true, force: plan.blockers.length > 0 }).then(
      (outcome) => {
        setDel({ kind: 'closed' });
        if (outcome.refused.length > 0) setError(outcome.refused[0]!.message);
        else onDeleted?.();
      },
      (e: unknown) => {
        setDel({ kind: 'closed' });
        fail('sessions:delete')(e);
      },
    );
  };

  return (
    <>
      <button type="button" className="button" data-testid={archived ? 'unarchive-session' : 'archive-session'} disabled={busy} onClick={toggleArchive}>
        {archived ? 'Unarchive' : 'Archive'}
      </button>
      <button type="button" className="button button-secondary" data-testid="delete-session" disabled={del.kind !== 'closed'} onClick={askDelete}>
        Delete…
      </button>
      {error !== null && (
        <span className="inline-error" role="alert" data-testid="lifecycle-error">
          {error}
        </span>
      )}
      {(del.kind === 'confirm' || del.kind === 'deleting') && (
        <ConfirmDialog
          tone="danger"
          title="Delete this session for good?"
          confirmLabel={del.plan.blockers.length > 0 ? 'Delete it anyway' : 'Delete session'}
          busy={del.kind === 'deleting'}
          testId="delete-dialog"
          onCancel={() => setDel({ kind: 'closed' })}
          onConfirm={() => confirmDelete(del.plan)}
        >
          <p data-testid="delete-what">
            “{del.plan.title || 'Untitled session'}” ({del.plan.state}): {del.plan.messageCount} messages, its artifacts and workspace patch
            {del.plan.receipts > 0 ? `, ${del.plan.receipts} handoff receipt${del.plan.receipts === 1 ? '' : 's'}` : ''} — {formatBytes(del.plan.bytes)} in Baton's data directory.
          </p>
          {del.plan.blockers.length > 0 && (
            <p className="notice" role="note" data-testid="delete-blockers">
              In use: {del.plan.blockers.join('; ')}.
            </p>
          )}
          <p className="muted">Files of Claude Code or Codex it was imported from are not touched. Archive keeps it instead.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
