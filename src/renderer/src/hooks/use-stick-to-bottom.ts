import { useLayoutEffect, useRef, type RefObject } from 'react';

/** Within this many pixels of the end counts as "reading the newest messages". */
export const STICK_THRESHOLD_PX = 80;

/**
 * A conversation opens at its newest message (where a handed-off session continues), and stays
 * pinned there as messages arrive, unless the person has scrolled up to read.
 */
export function useStickToBottom(container: RefObject<HTMLElement | null>, key: string | null, version: unknown): void {
  const pinned = useRef(true);
  const lastKey = useRef<string | null>(null);

  useLayoutEffect(() => {
    const element = container.current;
    if (element === null) return;
    const onScroll = (): void => {
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_THRESHOLD_PX;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [container]);

  useLayoutEffect(() => {
    const element = container.current;
    if (element === null || version === undefined) return;
    const opened = lastKey.current !== key;
    lastKey.current = key;
    if (opened || pinned.current) {
      element.scrollTop = element.scrollHeight;
      pinned.current = true;
    }
  }, [container, key, version]);
}
