import { useEffect, useState } from 'react';
import { copyText } from '../features/terminal/copy-text';
import { COPIED_FEEDBACK_MS } from './CopyableCode';

/**
 * A small Copy button for a message or a code block. When the clipboard is refused (the browser
 * host over plain http:) it says so, and the text stays selectable on screen.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="button-copy"
      aria-label={label}
      data-testid="copy-button"
      data-state={state}
      onClick={() => void copyText(text).then(setState)}
    >
      {state === 'copied' ? 'Copied' : state === 'select' ? 'Select to copy' : 'Copy'}
    </button>
  );
}
