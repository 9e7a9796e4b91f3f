// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_VIEWPORT_PX, useViewport, type Viewport } from './use-viewport';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * A browser's ResizeObserver as far as this hook meets it: happy-dom lays nothing out, so the
 * observer's first report (which a browser makes after the frame's layout) is made by the test.
 */
class ReportingObserver {
  static last: ReportingObserver | undefined;
  constructor(readonly report: () => void) {
    ReportingObserver.last = this;
  }
  observe(): void {}
  disconnect(): void {}
}

/** A scrolling element whose laid-out height is `height`; each read of it is counted (a read before layout forces one). */
function Scroller({ height, reads, seen }: { height: number; reads: { count: number }; seen: Viewport[] }) {
  const ref = useRef<HTMLElement | null>(null);
  const [viewport] = useViewport(ref);
  seen.push(viewport);
  return (
    <section
      ref={(element) => {
        if (element !== null && ref.current !== element) {
          Object.defineProperty(element, 'clientHeight', { get: () => (reads.count++, height) });
          ref.current = element;
        }
      }}
    />
  );
}

describe('useViewport', () => {
  it('reads the height from the observer’s first report, not before the frame’s layout', () => {
    vi.stubGlobal('ResizeObserver', ReportingObserver);
    const reads = { count: 0 };
    const seen: Viewport[] = [];
    render(<Scroller height={620} reads={reads} seen={seen} />);
    // Before: measured in the layout effect, a forced layout of the page with its new rows.
    expect(reads.count).toBe(0);
    expect(seen.at(-1)).toEqual({ scrollTop: 0, height: FALLBACK_VIEWPORT_PX });
    act(() => ReportingObserver.last!.report());
    expect(reads.count).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ scrollTop: 0, height: 620 });
  });

  it('draws its first frame for the window’s height when the window is taller than the fallback', () => {
    vi.stubGlobal('ResizeObserver', ReportingObserver);
    vi.stubGlobal('innerHeight', 1_400);
    const seen: Viewport[] = [];
    render(<Scroller height={1_300} reads={{ count: 0 }} seen={seen} />);
    // Before the observer reports: rows for 1,400 px, not 800 with blank space below them.
    expect(seen[0]).toEqual({ scrollTop: 0, height: 1_400 });
    act(() => ReportingObserver.last!.report());
    expect(seen.at(-1)).toEqual({ scrollTop: 0, height: 1_300 });
  });

  it('without a ResizeObserver, measures at once', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const reads = { count: 0 };
    const seen: Viewport[] = [];
    render(<Scroller height={540} reads={reads} seen={seen} />);
    expect(seen.at(-1)).toEqual({ scrollTop: 0, height: 540 });
  });
});
