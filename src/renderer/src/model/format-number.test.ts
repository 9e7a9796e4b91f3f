import { describe, expect, it } from 'vitest';
import { formatCount } from './format-number';

describe('formatCount', () => {
  it('groups thousands the same way everywhere', () => {
    expect([0, 7, 999, 1_000, 2_014, 100_000, 1_234_567].map(formatCount)).toEqual(['0', '7', '999', '1,000', '2,014', '100,000', '1,234,567']);
  });
});
