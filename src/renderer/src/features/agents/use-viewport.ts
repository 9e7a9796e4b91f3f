import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Height assumed when the element reports none (before layout, or in a DOM without layout such as
 * the component tests): enough rows for a tall window, still a small fraction of a long list.
 */
export const FALLBACK_VIEWPORT_PX = 800;

export interface Viewport {
  scrollTop: number;
  height: number;
}

/** The scroll position and visible height of a scrolling element, kept current on scroll and resize. */
export function useViewport(ref: RefObject<HTMLElement | null>): [Viewport, (scrollTop: number) => void] {
  // The first frame's rows are drawn for a guess: the window's height (a list is no taller), so a
  // tall window has no blank space below them before the observer's first report.
  const [viewport, setViewport] = useState<Viewport>(() => ({ scrollTop: 0, height: Math.max(FALLBACK_VIEWPORT_PX, typeof window === 'undefined' ? 0 : window.innerHeight) }));

  const measure = useCallback(() => {
    const element = ref.current;
    if (element === null) return;
    const height = element.clientHeight > 0 ? element.clientHeight : FALLBACK_VIEWPORT_PX;
    const scrollTop = element.scrollTop;
    setViewport((current) => (current.height === height && current.scrollTop === scrollTop ? current : { scrollTop, height }));
  }, [ref]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    element.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    // The observer reports the element's first size after the frame's own layout: measured here,
    // before it, clientHeight forced a layout of the whole page with its new rows, and a height
    // other than the guess re-rendered them, laid out again, all before the first row's paint
    // (20–45 ms of a page's first rows, issue 15). Without an observer, measured at once.
    if (observer === null) measure();
    observer?.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [ref, measure]);

  /** Scrolls the element and updates the window in the same render, so the target row exists at once. */
  const scrollTo = useCallback(
    (scrollTop: number) => {
      const element = ref.current;
      if (element !== null) element.scrollTop = scrollTop;
      setViewport((current) => ({ ...current, scrollTop }));
    },
    [ref],
  );

  return [viewport, scrollTo];
}
