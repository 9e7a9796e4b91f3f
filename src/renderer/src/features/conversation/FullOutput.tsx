import { useState } from 'react';
import type { FullOutput as FullOutputRef } from '../../../../shared/message';
import { CollapsibleText } from '../../components/CollapsibleText';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';

type State = { kind: 'closed' } | { kind: 'loading' } | { kind: 'open'; text: string; cut: boolean } | { kind: 'error'; message: string };

/**
 * The trimmed output stays on screen; "Show full output" fetches the untrimmed text from the
 * session's artifacts (checked against its hash by the host) and shows it in its place.
 */
export function FullOutput({ sessionId, output, trimmed }: { sessionId: string; output: FullOutputRef; trimmed: string }) {
  const api = useApi();
  const [state, setState] = useState<State>({ kind: 'closed' });
  const load = () => {
    setState({ kind: 'loading' });
    api.invoke('artifact:text', { sessionId, ref: output.ref }).then(
      (value) => setState({ kind: 'open', text: value.text, cut: value.shownBytes < value.bytes }),
      (error: Error) => setState({ kind: 'error', message: error.message }),
    );
  };
  const size = `${formatCount(output.lines)} lines, ${formatBytes(output.bytes)}`;
  return (
    <div className="full-output" data-testid="full-output" data-ref={output.ref}>
      {/* The trimmed form is bounded (about 90 lines) and its error lines are the point: shown whole. */}
      {state.kind === 'open' ? <CollapsibleText text={state.text} mono /> : <div className="text text-mono">{trimmed}</div>}
      <div className="full-output-actions">
        {state.kind === 'open' ? (
          <button type="button" className="button-link" onClick={() => setState({ kind: 'closed' })}>
            Show trimmed output
          </button>
        ) : (
          <button type="button" className="button-link" data-testid="show-full-output" disabled={state.kind === 'loading'} onClick={load}>
            {state.kind === 'loading' ? 'Loading full output…' : `Show full output (${size})`}
          </button>
        )}
        {state.kind === 'open' && state.cut && (
          <span className="muted" data-testid="full-output-cut">
            Showing the first part of {formatBytes(output.bytes)}; all of it is in <code>{output.ref}</code> in the session folder.
          </span>
        )}
        {state.kind === 'error' && (
          <span className="inline-error" role="alert" data-testid="full-output-error">
            The full output could not be read: {state.message}
          </span>
        )}
      </div>
    </div>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
