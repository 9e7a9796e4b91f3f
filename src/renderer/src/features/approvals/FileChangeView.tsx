import { useMemo } from 'react';
import { fileChangeOf, lineDiff } from './file-change';

/** Lines shown before "N more lines" (the request is for deciding; the full file is on disk). */
export const MAX_SHOWN_DIFF_LINES = 400;

/** The diff of a file-writing request (Edit / MultiEdit / Write), or nothing for other tools. */
export function FileChangeView({ input }: { input: Record<string, unknown> }) {
  const change = useMemo(() => fileChangeOf(input), [input]);
  const lines = useMemo(() => change?.edits.flatMap((edit, index) => [...(index > 0 ? [{ op: '…' as const, text: '' }] : []), ...lineDiff(edit.oldText, edit.newText)]) ?? [], [change]);
  if (change === null) return null;
  const shown = lines.slice(0, MAX_SHOWN_DIFF_LINES);
  return (
    <section className="file-change" data-testid="approval-diff" aria-label="Proposed change">
      <h3 className="section-title">
        {change.kind === 'write' ? 'New content' : change.edits.length === 1 ? 'Change' : `${change.edits.length} changes`}
        {change.path !== null && <code className="muted"> {change.path}</code>}
      </h3>
      <pre className="diff">
        {shown.map((line, index) =>
          line.op === '…' ? (
            <span key={index} className="diff-line diff-gap">
              ⋯
            </span>
          ) : (
            <span key={index} className={`diff-line diff-${line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'same'}`} data-op={line.op}>
              <span className="diff-op" aria-hidden="true">
                {line.op}
              </span>
              {line.text}
            </span>
          ),
        )}
      </pre>
      {lines.length > shown.length && <p className="muted">{lines.length - shown.length} more lines not shown.</p>}
    </section>
  );
}
