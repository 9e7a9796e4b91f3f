import { describe, expect, it } from 'vitest';
import { computeHandoffStats } from './stats.js';

describe('computeHandoffStats', () => {
  it('counts source outcomes, the success rate and duration percentiles', () => {
    const stats = computeHandoffStats([
      { side: 'source', category: 'accepted', durationsMs: { total: 100 } },
      { side: 'source', category: 'duplicate', durationsMs: { total: 50 } },
      { side: 'source', category: 'no_target', durationsMs: { total: 10 } },
      { side: 'source', category: 'rejected', durationsMs: {} },
      { side: 'target', category: 'accepted' },
      { side: 'source', category: 'not-a-category' },
      { side: 'target', kind: 'verify_mismatch', sessionId: 's', fields: ['context.message_count'] },
    ]);
    expect(stats.total).toBe(4);
    expect(stats.succeeded).toBe(2);
    expect(stats.successRate).toBe(0.5);
    expect(stats.byCategory).toMatchObject({ accepted: 1, duplicate: 1, no_target: 1, rejected: 1, write_failure: 0 });
    expect(stats.totalMs).toEqual({ p50: 50, p95: 100 });
    expect(stats.verifyMismatches).toBe(1);
  });

  it('has no rate without handoffs', () => {
    expect(computeHandoffStats([]).successRate).toBeNull();
  });
});
