import { useId, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import type { DriftedFile, RehydrateRequest, RehydrateResult, RehydrationPlan } from '../../../../shared/workspace';
import { useApi } from '../../hooks/api-context';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { describeStep } from './describe-step';
import { shortHash } from './format';

export interface ActionProps {
  sessionId: string;
  onDone: (result: RehydrateResult) => void;
}

/** Runs one confirmed step; keeps the dialog open with the error when it fails. */
function useRehydrateStep(onDone: (result: RehydrateResult) => void) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  async function run(request: RehydrateRequest): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      onDone(await api.invoke('workspace:rehydrate', request));
      return true;
    } catch (caught) {
      setError(toApiError(caught, 'workspace:rehydrate'));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run, clear: () => setError(null) };
}

/** "Take the handed-off version" of one drifted file, after a confirmation naming the path. */
export function TakeFileAction({ sessionId, file, onDone }: ActionProps & { file: DriftedFile }) {
  const [open, setOpen] = useState(false);
  const step = useRehydrateStep(onDone);
  const deletes = file.expectedSha256 === null;
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)} data-testid="take-file" data-path={file.path}>
        Take the handed-off version
      </button>
      {open && (
        <ConfirmDialog
          title={deletes ? `Remove ${file.path}?` : `Replace ${file.path}?`}
          confirmLabel={deletes ? 'Remove it' : 'Take the handed-off version'}
          busy={step.busy}
          onCancel={() => {
            step.clear();
            setOpen(false);
          }}
          onConfirm={() => void step.run({ action: 'take-file', sessionId, path: file.path }).then((ok) => ok && setOpen(false))}
        >
          <p>
            {deletes ? 'The handoff did not have ' : 'Baton writes the handed-off version of '}
            <code>{file.path}</code>
            {deletes ? '; Baton removes it from your working tree.' : ` (${shortHash(file.expectedSha256)}) over the file on disk.`}
          </p>
          <p className="muted">
            The current file ({shortHash(file.actualSha256, 'none')}) is kept under this session's artifacts, so nothing is lost.
          </p>
          {step.error !== null && <StepError error={step.error} />}
        </ConfirmDialog>
      )}
    </>
  );
}

/** "Recreate in a worktree": a directory (the plan's default), a confirmation, then `git worktree add` + the patch. */
export function WorktreeAction({ sessionId, plan, onDone }: ActionProps & { plan: Extract<RehydrationPlan, { kind: 'worktree' }> }) {
  const inputId = useId();
  const [dir, setDir] = useState(plan.defaultDir ?? '');
  const [open, setOpen] = useState(false);
  const step = useRehydrateStep(onDone);
  const target = dir.trim();
  return (
    <div className="worktree-action" data-testid="worktree-action">
      <p className="ws-banner-text">{plan.reason}</p>
      <form
        className="worktree-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (target.length > 0) setOpen(true);
        }}
      >
        <label htmlFor={inputId}>Worktree directory</label>
        <input id={inputId} type="text" value={dir} onChange={(event) => setDir(event.target.value)} spellCheck={false} data-testid="worktree-dir" />
        <button type="submit" className="button button-small" disabled={target.length === 0} data-testid="worktree-start">
          Recreate in a worktree
        </button>
      </form>
      {open && (
        <ConfirmDialog
          title="Recreate the handed-off workspace in a worktree?"
          confirmLabel="Create the worktree"
          busy={step.busy}
          onCancel={() => {
            step.clear();
            setOpen(false);
          }}
          onConfirm={() => void step.run({ action: 'worktree', sessionId, targetDir: target }).then((ok) => ok && setOpen(false))}
        >
          <p>
            Baton checks out {plan.head !== null ? <code>{plan.head.slice(0, 12)}</code> : 'the handed-off commit'} into <code>{target}</code> and applies the handed-off
            changes there.
          </p>
          <p className="muted">Your current checkout is not touched. The directory must be empty or not exist yet.</p>
          {step.error !== null && <StepError error={step.error} />}
        </ConfirmDialog>
      )}
    </div>
  );
}

function StepError({ error }: { error: ApiError }) {
  return (
    <p className="inline-error" role="alert">
      {error.message} <code>{error.code}</code>
    </p>
  );
}

/** What the last step did: applied or (already done) unchanged, per entry of its log. */
export function RehydrateResultNote({ result, onDismiss }: { result: RehydrateResult; onDismiss: () => void }) {
  return (
    <div className="notice notice-ok rehydrate-result" role="status" data-testid="rehydrate-result">
      <ul>
        {result.log.map((entry, index) => (
          <li key={index} data-result={entry.result}>
            <strong>{entry.result === 'applied' ? 'Applied' : 'Unchanged'}</strong> · {describeStep(entry.step, entry.path, entry.targetDir ?? result.targetDir)}
            {entry.result === 'unchanged' && <span className="muted"> (it had already been done)</span>}
            {entry.backupRef != null && <span className="muted"> · previous file kept as {entry.backupRef}</span>}
          </li>
        ))}
      </ul>
      <button type="button" className="button-link" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
