import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../shared/message.js';
import { emptyState, extend } from './extract.js';
import { parseSummaryState, renderSummary } from './summary.js';

const text = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.constantFrom('We must never use --force --> here.', 'Should we close <!-- this --> comment?', "Let's use x > y -- always.", '```\nmust not\n```', 'ünïcödé must stay 🙂?'),
);
const record = fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'system'), content: text, exit: fc.option(fc.integer({ min: -1, max: 3 })), compact: fc.boolean() });

function records(items: { role: string; content: string; exit: number | null; compact: boolean }[]): MessageRecord[] {
  return items.map((r, seq) => ({
    role: r.role,
    content: r.content,
    id: `m${seq}`,
    seq,
    crc: '0',
    createdAt: '',
    ...(r.compact && r.role === 'system' ? { compactSummary: true } : {}),
    ...(r.exit !== null ? { toolCalls: [{ id: `c${seq}`, name: 'Bash', input: { command: r.content.slice(0, 20) }, exitCode: r.exit }] } : {}),
  })) as MessageRecord[];
}

describe('summary state round trip', () => {
  it('property: whatever the messages say (comment markers included), the state read back is the state written', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (items) => {
        const state = extend(emptyState(), records(items));
        const parsed = parseSummaryState(renderSummary({ number: 3, sessionId: 's', previous: null }, state));
        expect(parsed).toEqual({ ok: true, state });
      }),
      { numRuns: 300 },
    );
  });

  it('property: extending in two steps gives the same state as reading everything at once', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), fc.nat(60), (items, cut) => {
        const all = records(items);
        const once = extend(emptyState(), all);
        const first = extend(emptyState(), all.slice(0, cut));
        const reread = parseSummaryState(renderSummary({ number: 1, sessionId: 's', previous: null }, first));
        expect(reread.ok).toBe(true);
        expect(extend((reread as { state: typeof first }).state, all)).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a damaged summary is refused with a reason, never thrown', () => {
    const good = renderSummary({ number: 1, sessionId: 's', previous: null }, extend(emptyState(), records([{ role: 'user', content: 'goal', exit: null, compact: false }])));
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.nat(good.length), fc.string({ maxLength: 8 }), (at, len, insert) => {
        const damaged = good.slice(0, at) + insert + good.slice(Math.min(good.length, at + len));
        const parsed = parseSummaryState(damaged);
        if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
    expect(parseSummaryState('# no state')).toEqual({ ok: false, reason: 'no baton-summary-state comment' });
    expect(parseSummaryState('<!-- baton-summary-state {"version":1} -->')).toMatchObject({ ok: false, reason: expect.stringContaining('not valid') });
  });
});
