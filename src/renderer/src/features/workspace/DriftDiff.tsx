import { useCallback, useState } from 'react';
import type { DriftedFile } from '../../../../shared/workspace';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { languageForPath } from './language-for-path';
import { MonacoDiffView } from './MonacoDiffView';

/**
 * A drifted file as a diff: what the disk holds now (left) against what the handoff holds (right:
 * its patch applied, or its HEAD's blob for a file it did not change), from workspace:file with
 * `against: 'disk'`. Opened on request: the hashes alone say only that the two differ.
 */
export function DriftDiff({ sessionId, file }: { sessionId: string; file: DriftedFile }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button-link" data-testid="drift-show-diff" aria-expanded={open} onClick={() => setOpen((current) => !current)}>
        {open ? 'Hide diff' : 'Show diff'}
      </button>
      {open && <DriftDiffBody sessionId={sessionId} path={file.path} />}
    </>
  );
}

function DriftDiffBody({ sessionId, path }: { sessionId: string; path: string }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('workspace:file', { sessionId, path, against: 'disk' }), [api, sessionId, path]);
  const diff = useRemote(`workspace:drift:${sessionId}:${path}`, load);
  let body;
  if (diff.value === undefined) {
    body = diff.error !== undefined ? <p className="inline-error" role="alert">Could not compare it: {diff.error.message}</p> : <p className="muted">Comparing…</p>;
  } else {
    const { original, modified } = diff.value;
    if (original.kind === 'text' || modified.kind === 'text' || original.kind === 'absent' || modified.kind === 'absent') {
      body = (
        <>
          <p className="file-diff-sides">
            <span>{original.kind === 'absent' ? 'Your disk now (no file)' : 'Your disk now'}</span>
            <span aria-hidden="true">→</span>
            <span>{modified.kind === 'absent' ? 'Handed off (no file)' : 'Handed off'}</span>
          </p>
          <MonacoDiffView
            path={path}
            original={original.kind === 'text' ? original.text : ''}
            modified={modified.kind === 'text' ? modified.text : ''}
            language={languageForPath(path)}
            inline
            oneSide={original.kind === 'absent' ? 'added' : modified.kind === 'absent' ? 'deleted' : undefined}
          />
        </>
      );
    } else {
      body = <p className="muted">{original.kind === 'unavailable' ? original.reason : modified.kind === 'unavailable' ? modified.reason : 'A binary or large file: compare the hashes above.'}</p>;
    }
  }
  return (
    <div className="drift-diff" data-testid="drift-diff" data-path={path}>
      {body}
    </div>
  );
}
