import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeWindow, indexAt, prefixOffsets, scrollToReveal } from './windowing';
import { GROUP_HEADER_HEIGHT, heightOf, listItems, ROW_HEIGHT } from './list-items';
import { groupSessions } from '../../../shared/resume-groups';
import { row } from '../test-support/fixtures';

describe('windowing', () => {
  const heights = [10, 20, 30, 40];
  const offsets = prefixOffsets(heights, (h) => h);

  it('prefixOffsets', () => expect([...offsets]).toEqual([0, 10, 30, 60, 100]));

  it('indexAt finds the item containing y, clamped', () => {
    expect([-5, 0, 9, 10, 29, 30, 99, 100, 500].map((y) => indexAt(offsets, y))).toEqual([0, 0, 0, 1, 1, 2, 3, 3, 3]);
  });

  it('computeWindow covers the viewport plus overscan', () => {
    expect(computeWindow(offsets, 0, 15, 0)).toEqual({ start: 0, end: 2 });
    expect(computeWindow(offsets, 35, 10, 0)).toEqual({ start: 2, end: 3 });
    expect(computeWindow(offsets, 35, 10, 10)).toEqual({ start: 1, end: 3 });
    expect(computeWindow(prefixOffsets([], () => 1), 0, 100, 10)).toEqual({ start: 0, end: 0 });
  });

  it('scrollToReveal moves only when needed', () => {
    expect(scrollToReveal(offsets, 1, 0, 50)).toBeNull();
    expect(scrollToReveal(offsets, 3, 0, 50)).toBe(50);
    expect(scrollToReveal(offsets, 0, 20, 50)).toBe(0);
    expect(scrollToReveal(offsets, 9, 0, 50)).toBeNull();
  });

  it('every item in the viewport is inside the window (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 300 }), fc.nat(20_000), fc.integer({ min: 0, max: 900 }), (hs, scroll, viewport) => {
        const off = prefixOffsets(hs, (h) => h);
        const { start, end } = computeWindow(off, scroll, viewport, 0);
        for (let i = 0; i < hs.length; i++) {
          const visible = off[i + 1]! > scroll && off[i]! < scroll + viewport;
          if (visible) expect(i >= start && i < end).toBe(true);
        }
        expect(start).toBeLessThanOrEqual(end);
      }),
      { numRuns: 300 },
    );
  });
});

describe('listItems', () => {
  const groups = groupSessions([
    row({ id: 'a1', cwd: '/a', updatedAt: '2026-11-29T10:00:00Z' }),
    row({ id: 'a2', cwd: '/a', updatedAt: '2026-11-29T09:00:00Z' }),
    row({ id: 'b1', cwd: '/b', updatedAt: '2026-11-29T08:00:00Z' }),
  ]);

  it('headers then rows; a collapsed group keeps only its header', () => {
    expect(listItems(groups, new Set()).map((i) => i.key)).toEqual(['group:/a', 'a1', 'a2', 'group:/b', 'b1']);
    const collapsed = listItems(groups, new Set(['/a']));
    expect(collapsed.map((i) => i.key)).toEqual(['group:/a', 'group:/b', 'b1']);
    expect(collapsed[0]).toMatchObject({ kind: 'group', collapsed: true, count: 2 });
  });

  it('heights are the fixed constants', () => {
    const items = listItems(groups, new Set());
    expect(prefixOffsets(items, heightOf)[items.length]).toBe(2 * GROUP_HEADER_HEIGHT + 3 * ROW_HEIGHT);
  });
});
