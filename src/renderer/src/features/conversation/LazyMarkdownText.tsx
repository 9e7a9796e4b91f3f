import { lazy, Suspense } from 'react';

/** The Markdown pipeline (react-markdown, remark-gfm) loads with the first message, not with the list. */
const MarkdownText = lazy(() => import('./MarkdownText').then((m) => ({ default: m.MarkdownText })));

/** A message as Markdown; until the pipeline has loaded (once per window), its text as plain text. */
export function LazyMarkdownText({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="text">{text}</div>}>
      <MarkdownText text={text} />
    </Suspense>
  );
}
