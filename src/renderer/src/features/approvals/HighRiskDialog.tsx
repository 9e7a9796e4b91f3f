import { useEffect, useRef } from 'react';
import type { ApprovalView } from './use-approvals';
import { requestSubject } from './file-change';
import { RiskReasons } from './RiskReasons';

export interface HighRiskDialogProps {
  view: ApprovalView;
  allowForSession: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The second, deliberate confirmation a high-risk approval needs: it names each risk, starts on
 * Cancel, and the confirming button says exactly what it does (a reflexive Enter cancels).
 */
export function HighRiskDialog({ view, allowForSession, onConfirm, onCancel }: HighRiskDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);

  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onCancel()}>
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="high-risk-title"
        aria-describedby="high-risk-body"
        data-testid="high-risk-dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onCancel();
          }
        }}
      >
        <h2 id="high-risk-title" className="dialog-title">
          Approve a high-risk action?
        </h2>
        <div id="high-risk-body">
          <p>
            <strong>{view.request.tool}</strong> wants to run <code className="dialog-subject">{requestSubject(view.request.tool, view.request.input)}</code> in{' '}
            <code>{view.request.cwd}</code>.
          </p>
          <RiskReasons reasons={view.request.risk.reasons} />
          {allowForSession && <p className="muted">It will also be allowed for the rest of this session.</p>}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" ref={cancelRef} onClick={onCancel} data-testid="cancel-high-risk">
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} data-testid="confirm-high-risk">
            Yes, approve this high-risk action
          </button>
        </div>
      </div>
    </div>
  );
}
