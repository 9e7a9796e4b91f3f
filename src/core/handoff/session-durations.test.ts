import { describe, expect, it } from 'vitest';
import { computeResumedDurations, RESUME_EVENT } from './session-durations.js';

const t = (minutes: number) => new Date(Date.UTC(2026, 10, 30, 9, 0) + minutes * 60_000).toISOString();
const accepted = (sessionId: string, minutes: number, handoffId: string) => ({ at: t(minutes), side: 'source', category: 'accepted', sessionId, handoffId });

describe('computeResumedDurations', () => {
  it('ends each accepted handoff at the next handoff, a resume, or the last activity', () => {
    const d = computeResumedDurations(
      [
        accepted('a', 0, 'h1'),
        { at: t(1), side: 'source', category: 'duplicate', sessionId: 'a', handoffId: 'h1' }, // a re-offer: same span
        { at: t(30), side: 'source', category: 'needs_capabilities', sessionId: 'a', handoffId: 'h2' }, // next handoff ends it
        accepted('b', 0, 'h3'),
        { at: t(5), kind: RESUME_EVENT, side: 'terminal', sessionId: 'b' },
        accepted('c', 0, 'h4'),
        accepted('d', 10, 'h5'),
        { at: t(0), side: 'source', category: 'accepted', sessionId: 'e', handoffId: 'h6', dryRun: true },
        { at: 'not a time', side: 'source', category: 'accepted', sessionId: 'f', handoffId: 'h7' },
      ],
      new Map([
        ['c', t(600)],
        ['d', t(0)], // last activity before the handoff: counts as 0
      ]),
    );
    expect(d.count).toBe(4);
    expect(d.byEnd).toEqual({ handoff: 1, resume: 1, 'last-activity': 2 });
    expect(d.max).toBe(600 * 60_000);
    expect(d.p50).toBe(5 * 60_000);
    expect(d.buckets).toEqual([
      { label: '< 1 min', count: 1 },
      { label: '1–10 min', count: 1 },
      { label: '10–60 min', count: 1 },
      { label: '1–8 h', count: 0 },
      { label: '≥ 8 h', count: 1 },
    ]);
  });

  it('measures every accepted handoff of one session separately', () => {
    const d = computeResumedDurations([accepted('a', 0, 'h1'), { at: t(2), kind: RESUME_EVENT, sessionId: 'a' }, accepted('a', 60, 'h2'), accepted('a', 180, 'h3')], new Map([['a', t(200)]]));
    expect(d.count).toBe(3);
    expect(d.byEnd).toEqual({ handoff: 1, resume: 1, 'last-activity': 1 });
    expect(d.max).toBe(120 * 60_000);
  });

  it('is empty without accepted handoffs', () => {
    expect(computeResumedDurations([{ at: t(0), side: 'source', category: 'no_target', sessionId: 'a' }], new Map())).toMatchObject({ count: 0, p50: null, p95: null, max: null });
  });
});
