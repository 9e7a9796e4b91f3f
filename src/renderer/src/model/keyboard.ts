/** Tags whose keystrokes are text: single-letter shortcuts must never fire inside them. */
const TYPING_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** True when a key event comes from somewhere the person is typing (a field, a select, an editor). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (target === null || typeof target !== 'object') return false;
  const element = target as { tagName?: unknown; isContentEditable?: unknown; closest?: (selector: string) => unknown };
  if (typeof element.tagName === 'string' && TYPING_TAGS.has(element.tagName.toUpperCase())) return true;
  if (element.isContentEditable === true) return true;
  // Monaco and other editors keep focus in a hidden textarea, caught above; a role=textbox covers the rest.
  return typeof element.closest === 'function' && element.closest('[contenteditable="true"], [role="textbox"]') !== null;
}

/** A plain key press: no Ctrl/Meta/Alt (those belong to the browser and the OS). */
export function isPlainKey(event: { ctrlKey: boolean; metaKey: boolean; altKey: boolean }): boolean {
  return !event.ctrlKey && !event.metaKey && !event.altKey;
}
