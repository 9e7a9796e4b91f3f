import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCount } from './format-number';

afterEach(() => vi.restoreAllMocks());

describe('formatCount', () => {
  it('groups thousands the same way everywhere', () => {
    expect([0, 7, 999, 1_000, 2_014, 100_000, 1_234_567].map(formatCount)).toEqual(['0', '7', '999', '1,000', '2,014', '100,000', '1,234,567']);
  });

  it('loads no Intl.NumberFormat, at import or in use (issue 15: a page\'s first Intl object loads ICU)', async () => {
    const Format = Intl.NumberFormat;
    const made = vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (...args: ConstructorParameters<typeof Format>) {
      return new Format(...args);
    } as typeof Format);
    vi.resetModules();
    const fresh = await import('./format-number');
    expect(fresh.formatCount(20_000)).toBe('20,000');
    expect(made).not.toHaveBeenCalled();
  });
});
