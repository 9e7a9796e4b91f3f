/** Name of the CSS highlight search terms are painted with (::highlight(baton-search) in CSS). */
export const SEARCH_HIGHLIGHT = 'baton-search';

/**
 * Paints every occurrence of `terms` inside `root` with the CSS Custom Highlight API: no DOM is
 * changed (the virtualized rows and React's tree stay as they are). A no-op where unsupported.
 */
export function paintTerms(root: HTMLElement | null, terms: readonly string[]): void {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
  const HighlightCtor = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  if (registry === undefined || HighlightCtor === undefined) return;
  if (root === null || terms.length === 0) {
    registry.delete(SEARCH_HIGHLIGHT);
    return;
  }
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.nodeValue?.toLowerCase() ?? '';
    for (const term of terms) {
      for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + term.length)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + term.length);
        ranges.push(range);
      }
    }
  }
  registry.set(SEARCH_HIGHLIGHT, new HighlightCtor(...ranges));
}
