import { memo, useMemo, useState, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { collapse } from '../../model/collapse';
import { CodeBlock } from './CodeBlock';
import { formatCount } from '../../model/format-number';

const components: Components = {
  // Fenced blocks get CodeBlock; the <pre> react-markdown wraps them in is dropped.
  pre: ({ children }) => <>{children}</>,
  code: ({ className, children, node }) => {
    const text = String(children ?? '');
    const fence = /language-([\w+-]+)/.exec(className ?? '')?.[1];
    const block = fence !== undefined || text.includes('\n') || node?.position?.start.line !== node?.position?.end.line;
    if (!block) return <code>{children}</code>;
    return <CodeBlock code={text.replace(/\n$/, '')} fence={fence} />;
  },
  // Links from an agent's text open outside the app, never in its window.
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
};

/** Parsed messages kept, so a row scrolled out of the virtual list and back is not parsed again. */
export const MARKDOWN_CACHE_ENTRIES = 1_000;
const parsed = new Map<string, ReactElement>();

/** react-markdown's synchronous Markdown (no hooks) called as a function, so its element tree can be cached. */
function renderMarkdown(text: string): ReactElement {
  const hit = parsed.get(text);
  if (hit !== undefined) return hit;
  const element = Markdown({ children: text, remarkPlugins: [remarkGfm], skipHtml: true, components }) as ReactElement;
  parsed.set(text, element);
  if (parsed.size > MARKDOWN_CACHE_ENTRIES) parsed.delete(parsed.keys().next().value!);
  return element;
}

/**
 * A message as Markdown (GFM: tables, task lists, strikethrough). Raw HTML in the text is
 * dropped (skipHtml), never rendered; react-markdown builds React elements, no innerHTML.
 * Long messages start folded to a preview with "Show more".
 */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const { long, preview, lineCount } = useMemo(() => collapse(text), [text]);
  const shown = long && !expanded ? preview : text;
  const rendered = useMemo(() => renderMarkdown(shown), [shown]);
  return (
    <div className="markdown" data-testid="markdown">
      {rendered}
      {long && (
        <button type="button" className="button-link" aria-expanded={expanded} data-testid="show-more" onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : `Show more (${formatCount(lineCount)} lines)`}
        </button>
      )}
    </div>
  );
});
