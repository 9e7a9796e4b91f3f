/**
 * The arithmetic of a virtual list with known item heights: prefix offsets once per list, then a
 * binary search per scroll. Pure, so it is tested without a browser.
 */
export interface ListWindow {
  /** First item drawn (inclusive). */
  start: number;
  /** One past the last item drawn. */
  end: number;
}

/** offsets[i] is the top of item i; offsets[n] is the total height. */
export function prefixOffsets<T>(items: readonly T[], heightOf: (item: T) => number): Float64Array {
  const offsets = new Float64Array(items.length + 1);
  for (let i = 0; i < items.length; i++) offsets[i + 1] = offsets[i]! + heightOf(items[i]!);
  return offsets;
}

/** Index of the item that contains `y` (clamped to the list). */
export function indexAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The items that intersect the viewport, widened by `overscanPx` on both sides. */
export function computeWindow(offsets: Float64Array, scrollTop: number, viewportHeight: number, overscanPx: number): ListWindow {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscanPx);
  const bottom = scrollTop + Math.max(0, viewportHeight) + overscanPx;
  const start = indexAt(offsets, top);
  let end = indexAt(offsets, bottom) + 1;
  if (end > count) end = count;
  return { start, end };
}

/** The scrollTop that brings item `index` fully into view, or null when it already is. */
export function scrollToReveal(offsets: Float64Array, index: number, scrollTop: number, viewportHeight: number): number | null {
  const top = offsets[index];
  const bottom = offsets[index + 1];
  if (top === undefined || bottom === undefined) return null;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return null;
}
