export type CopyOutcome = 'copied' | 'select';

/**
 * Copies with the async clipboard API. The browser host on plain http: has none (it needs a
 * secure context, and 127.0.0.1 over http is one only in some browsers), and a permission prompt
 * can refuse: then the caller selects the text and asks for Ctrl+C.
 */
export async function copyText(text: string, clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard): Promise<CopyOutcome> {
  if (clipboard === undefined) return 'select';
  try {
    await clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'select';
  }
}

/** Selects every character of `element`, so Ctrl+C (⌘C) copies exactly the command. */
export function selectContents(element: HTMLElement): void {
  const selection = window.getSelection();
  if (selection === null) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** "Ctrl+C", or "⌘C" on a Mac. */
export function copyShortcut(platform: string = globalThis.navigator?.platform ?? ''): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘C' : 'Ctrl+C';
}
