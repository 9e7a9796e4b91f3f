import { useCallback, useState } from 'react';
import { vscodeFileLink } from '../../../../shared/editor-link';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';

/**
 * "Open in editor" for a file of the session: a `vscode://file/…` link wherever the file is on this
 * disk (`root`), and on the desktop a button that has the host run `code -g` (or $VISUAL/$EDITOR).
 */
export function OpenInEditor({ sessionId, root, path, line = 1 }: { sessionId: string; root: string | null; path: string; line?: number }) {
  const api = useApi();
  const loadInfo = useCallback(() => api.invoke('host:info', {}), [api]);
  const info = useRemote('host:info', loadInfo);
  const [state, setState] = useState<{ status: 'idle' | 'busy' | 'done' } | { status: 'failed'; message: string }>({ status: 'idle' });

  function open(): void {
    setState({ status: 'busy' });
    api.invoke('editor:open', { sessionId, path, line }).then(
      () => setState({ status: 'done' }),
      (error: unknown) => setState({ status: 'failed', message: toApiError(error).message }),
    );
  }

  return (
    <span className="open-in-editor">
      {root !== null && (
        <a className="button-link" data-testid="open-in-vscode" href={vscodeFileLink(`${root.replace(/\/$/, '')}/${path}`, line)}>
          Open in VS Code
        </a>
      )}
      {info.value?.host === 'electron' && (
        <button type="button" className="button-link" data-testid="open-in-editor" onClick={open} disabled={state.status === 'busy'}>
          {state.status === 'done' ? 'Opened in editor' : 'Open in editor'}
        </button>
      )}
      {state.status === 'failed' && (
        <span className="inline-error" role="alert">
          {state.message}
        </span>
      )}
    </span>
  );
}
