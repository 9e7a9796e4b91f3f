import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { highlight, langOf, type HighlightToken } from './highlight';
import { whenQuiet } from './highlight-queue';

/**
 * A fenced code block: monospace, with a Copy button, plain at once and highlighted when the
 * (lazily loaded) highlighter answers. Unknown languages stay plain.
 */
export function CodeBlock({ code, fence }: { code: string; fence: string | undefined }) {
  const lang = langOf(fence);
  const [lines, setLines] = useState<HighlightToken[][] | null>(null);
  useEffect(() => {
    setLines(null);
    if (lang === null) return;
    let live = true;
    const cancel = whenQuiet(() =>
      highlight(code, lang).then(
        (tokens) => {
          if (live) setLines(tokens);
        },
        () => undefined, // a highlighter failure leaves the block plain, which is still correct
      ),
    );
    return () => {
      live = false;
      cancel();
    };
  }, [code, lang]);
  return (
    <div className="code-block" data-testid="code-block" data-lang={fence ?? ''}>
      <div className="code-block-bar">
        <span className="code-block-lang">{fence ?? 'text'}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      <pre>
        <code className={fence ? `language-${fence}` : undefined} data-highlighted={lines !== null || undefined}>
          {lines === null
            ? code
            : lines.map((line, i) => (
                <span className="code-line" key={i}>
                  {line.map((token, j) => (
                    <span key={j} style={{ '--shiki-light': token.light, '--shiki-dark': token.dark } as React.CSSProperties}>
                      {token.content}
                    </span>
                  ))}
                  {i < lines.length - 1 ? '\n' : null}
                </span>
              ))}
        </code>
      </pre>
    </div>
  );
}
