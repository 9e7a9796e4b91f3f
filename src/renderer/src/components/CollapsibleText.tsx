import { useMemo, useState } from 'react';
import { collapse } from '../model/collapse';
import { formatCount } from '../model/format-number';

/**
 * Text shown as text (React escapes it; never injected as HTML), with white space kept. Long
 * content starts collapsed to a preview with a button that says how much is hidden.
 */
export function CollapsibleText({ text, mono = false }: { text: string; mono?: boolean }) {
  const [expanded, setExpanded] = useState(false);
  // Content can be megabytes (tool output); measure it once per text, not on every render.
  const { long, preview, lineCount } = useMemo(() => collapse(text), [text]);
  const className = mono ? 'text text-mono' : 'text';
  if (!long) return <div className={className}>{text}</div>;
  return (
    <div className="collapsible">
      <div className={className}>{expanded ? text : preview}</div>
      <button type="button" className="button-link" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        {expanded ? 'Show less' : `Show all (${formatCount(lineCount)} ${lineCount === 1 ? 'line' : 'lines'}, ${formatCount(text.length)} characters)`}
      </button>
    </div>
  );
}
