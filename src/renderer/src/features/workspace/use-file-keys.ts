import { useEffect, useRef } from 'react';

/** True when a key press belongs to a text field (the filter box, the worktree path, Monaco's input). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/**
 * `]` / `[` and Alt+↓ / Alt+↑ step to the next / previous file. Brackets are left to text fields;
 * Alt+arrows work everywhere (they type nothing). Ignored while a dialog is open.
 */
export function useFileKeys(onStep: (step: 1 | -1) => void): void {
  const callback = useRef(onStep);
  callback.current = onStep;
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey) return;
      if (document.querySelector('[aria-modal="true"]') !== null) return;
      let step: 1 | -1 | null = null;
      if (event.altKey && event.key === 'ArrowDown') step = 1;
      else if (event.altKey && event.key === 'ArrowUp') step = -1;
      else if (!event.altKey && !typingIn(event.target) && event.key === ']') step = 1;
      else if (!event.altKey && !typingIn(event.target) && event.key === '[') step = -1;
      if (step === null) return;
      event.preventDefault();
      callback.current(step);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
