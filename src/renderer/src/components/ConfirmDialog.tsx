import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** `danger` for what cannot be undone (deleting data): red title and button, announced as an alert. */
  tone?: 'danger' | 'neutral';
  /** The dialog's test id; its buttons are `<testId>-cancel` and `<testId>-confirm`. */
  testId?: string;
}

const CLASSES = {
  danger: { backdrop: 'dialog-backdrop', dialog: 'dialog', title: 'dialog-title', body: 'dialog-body', actions: 'dialog-actions', confirm: 'button button-danger' },
  neutral: { backdrop: 'confirm-backdrop', dialog: 'confirm', title: 'confirm-title', body: 'confirm-body', actions: 'confirm-actions', confirm: 'button' },
} as const;

/**
 * Asks before Baton changes the person's files or data. Modal: focus starts on Cancel (the safe
 * answer), Escape and a click outside cancel (not while busy), the confirming button says what it
 * does, and focus returns to whatever opened the dialog.
 */
export function ConfirmDialog({ title, children, confirmLabel, busy = false, onConfirm, onCancel, tone = 'neutral', testId = 'confirm-dialog' }: ConfirmDialogProps) {
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const classes = CLASSES[tone];

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancel.current?.focus();
    return () => opener?.focus();
  }, []);

  return (
    <div className={classes.backdrop} onMouseDown={(event) => event.target === event.currentTarget && !busy && onCancel()}>
      <div
        className={classes.dialog}
        role={tone === 'danger' ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) {
            event.stopPropagation();
            onCancel();
          }
        }}
      >
        <h2 className={classes.title} id={titleId}>
          {title}
        </h2>
        <div className={classes.body}>{children}</div>
        <div className={classes.actions}>
          <button type="button" className="button button-secondary" ref={cancel} onClick={onCancel} disabled={busy} data-testid={`${testId}-cancel`}>
            Cancel
          </button>
          <button type="button" className={classes.confirm} onClick={onConfirm} disabled={busy} data-testid={`${testId}-confirm`}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
