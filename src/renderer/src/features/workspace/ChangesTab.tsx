import { useCallback, useEffect, useMemo, useState } from 'react';
import type { RehydrateResult } from '../../../../shared/workspace';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { DiffFileList } from './DiffFileList';
import { DriftDiff } from './DriftDiff';
import { FileDiffPanel } from './FileDiffPanel';
import { filterFiles, stepFile } from './file-list-model';
import { RehydrateResultNote, TakeFileAction, WorktreeAction } from './RehydrateActions';
import { StatusBanner } from './StatusBanner';
import { useFileKeys } from './use-file-keys';
import { useWorkspaceDiff, useWorkspaceStatus } from './use-workspace';
import { useWatchDrift } from './use-watch-drift';

/** Side-by-side or inline is the reader's preference on this machine (client-local, never handed off). */
export const INLINE_PREF_KEY = 'baton.diff.inline';

function readInlinePref(): boolean {
  try {
    return window.localStorage.getItem(INLINE_PREF_KEY) === 'true';
  } catch {
    return false;
  }
}

export interface ChangesTabProps {
  sessionId: string;
  /** The session document changed on the host (a rehydration step was logged). */
  onSessionChanged?: () => void;
}

/** The workspace of a handed-off session: how this disk compares, what can be rehydrated, and the diff. */
export function ChangesTab({ sessionId, onSessionChanged }: ChangesTabProps) {
  const api = useApi();
  const status = useWorkspaceStatus(api, sessionId);
  const hasWorkspace = status.value?.hasWorkspace === true;
  const diff = useWorkspaceDiff(api, sessionId, hasWorkspace);
  const { reload: reloadStatus } = status;
  const { reload: reloadDiff } = diff;
  useWatchDrift(api, sessionId, hasWorkspace, useCallback(() => {
      reloadStatus();
      reloadDiff();
    }, [reloadStatus, reloadDiff]));
  const [selected, setSelected] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [inline, setInline] = useState(readInlinePref);
  const [result, setResult] = useState<RehydrateResult | null>(null);

  const files = diff.value?.files;
  const visible = useMemo(() => filterFiles(files ?? [], query), [files, query]);
  // Open the first file once the list arrives, so the viewer is never an empty box.
  useEffect(() => {
    if (files !== undefined && files.length > 0 && (selected === null || !files.some((file) => file.path === selected))) setSelected(files[0]!.path);
  }, [files, selected]);

  useFileKeys((step) => setSelected((current) => stepFile(visible, current, step)));

  const chooseInline = useCallback((next: boolean) => {
    setInline(next);
    try {
      window.localStorage.setItem(INLINE_PREF_KEY, String(next));
    } catch {
      // Storage refused (private mode): the choice lasts for this view only.
    }
  }, []);

  const onDone = useCallback(
    (done: RehydrateResult) => {
      setResult(done);
      status.reload();
      diff.reload();
      onSessionChanged?.();
    },
    [status, diff, onSessionChanged],
  );

  if (status.value === undefined) {
    if (status.error !== undefined) return <ErrorState what="Could not check the workspace." error={status.error} onRetry={status.reload} />;
    return <Skeleton rows={2} label="Checking the workspace against this disk…" />;
  }
  if (!status.value.hasWorkspace) {
    return (
      <div className="state" data-testid="no-workspace">
        <h2 className="state-title">No workspace in this handoff</h2>
        <p className="muted">This session was handed off from a directory that is not a git repository, so there are no changes to show.</p>
      </div>
    );
  }
  const file = files?.find((candidate) => candidate.path === selected);
  return (
    <div className="changes" data-testid="changes-tab">
      <div className="changes-top">
        <StatusBanner
          status={status.value}
          renderFileAction={(drifted) => (
            <>
              <DriftDiff sessionId={sessionId} file={drifted} />
              {status.value?.plan?.kind === 'per-file' && status.value.plan.files.some((planned) => planned.path === drifted.path) && (
                <TakeFileAction sessionId={sessionId} file={drifted} onDone={onDone} />
              )}
            </>
          )}
          renderWorktreeAction={(plan) => <WorktreeAction sessionId={sessionId} plan={plan} onDone={onDone} />}
        />
        <button type="button" className="button-link changes-recheck" onClick={status.reload} disabled={status.loading} data-testid="workspace-recheck">
          {status.loading ? 'Checking…' : 'Check again'}
        </button>
      </div>
      {result !== null && <RehydrateResultNote result={result} onDismiss={() => setResult(null)} />}
      {diff.value === undefined ? (
        diff.error !== undefined ? (
          <ErrorState what="Could not list the changed files." error={diff.error} onRetry={diff.reload} />
        ) : (
          <Skeleton rows={3} label="Listing the changed files…" />
        )
      ) : (
        <div className="changes-body">
          <DiffFileList list={diff.value} selected={selected} onSelect={setSelected} query={query} onQuery={setQuery} />
          <div className="changes-viewer">
            {file !== undefined ? (
              <FileDiffPanel sessionId={sessionId} file={file} inline={inline} onInline={chooseInline} root={status.value?.verification?.targetRoot ?? null} />
            ) : (
              <p className="muted file-diff-note">{diff.value.total === 0 ? 'Nothing changed in this workspace.' : 'Choose a file on the left.'}</p>
            )}
            {diff.value.total > 1 && (
              <p className="key-hint muted" data-testid="file-key-hint">
                <kbd>]</kbd> <kbd>[</kbd> or <kbd>Alt</kbd>+<kbd>↓</kbd> <kbd>↑</kbd> next / previous file
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
