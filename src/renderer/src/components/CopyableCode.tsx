import { useEffect, useState } from 'react';

/** How long "Copied" stays on the button. */
export const COPIED_FEEDBACK_MS = 1_500;

/** A command in a code block with a Copy button; the text stays selectable when the clipboard is refused. */
export function CopyableCode({ text, label = 'Copy command' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (copied === 'idle') return;
    const timer = setTimeout(() => setCopied('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  function copy(): void {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (clipboard === undefined) {
      setCopied('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  }

  return (
    <div className="copyable">
      <pre>
        <code>{text}</code>
      </pre>
      <button type="button" className="button button-small" onClick={copy} aria-label={label}>
        {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Select and copy' : 'Copy'}
      </button>
    </div>
  );
}
