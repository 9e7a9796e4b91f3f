import { requestSubject } from './file-change';
import type { ApprovalView } from './use-approvals';

/** The in-app announcement of a new request, when no OS notification could be shown. */
export function ApprovalToast({ view, onReview, onDismiss }: { view: ApprovalView; onReview: () => void; onDismiss: () => void }) {
  return (
    <div className={`toast toast-risk-${view.request.risk.level}`} role="status" aria-live="polite" data-testid="approval-toast">
      <div className="toast-text">
        <strong>Approval needed: {view.request.tool}</strong>
        <code>{requestSubject(view.request.tool, view.request.input)}</code>
      </div>
      <button type="button" className="button button-small" onClick={onReview}>
        Review
      </button>
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
