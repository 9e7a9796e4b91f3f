import { useEffect, useRef, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId: string;
}

/** A destructive confirmation: starts on Cancel, Esc cancels, and the confirming button says what it does. */
export function ConfirmDialog({ title, children, confirmLabel, busy, onConfirm, onCancel, testId }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onCancel()}>
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${testId}-title`}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onCancel();
          }
        }}
      >
        <h2 id={`${testId}-title`} className="dialog-title">
          {title}
        </h2>
        {children}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" ref={cancelRef} onClick={onCancel} data-testid={`${testId}-cancel`}>
            Cancel
          </button>
          <button type="button" className="button button-danger" disabled={busy} onClick={onConfirm} data-testid={`${testId}-confirm`}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
