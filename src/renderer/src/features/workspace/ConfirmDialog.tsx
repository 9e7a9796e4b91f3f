import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before Baton touches the person's files. Modal: focus starts on Cancel (the safe answer),
 * Escape cancels, and focus returns to whatever opened it.
 */
export function ConfirmDialog({ title, children, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancel.current?.focus();
    return () => opener?.focus();
  }, []);

  return (
    <div className="confirm-backdrop" onMouseDown={(event) => event.target === event.currentTarget && !busy && onCancel()}>
      <div
        className="confirm"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="confirm-dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) {
            event.stopPropagation();
            onCancel();
          }
        }}
      >
        <h2 className="confirm-title" id={titleId}>
          {title}
        </h2>
        <div className="confirm-body">{children}</div>
        <div className="confirm-actions">
          <button type="button" className="button button-secondary" ref={cancel} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="button" onClick={onConfirm} disabled={busy} data-testid="confirm-dialog-confirm">
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
