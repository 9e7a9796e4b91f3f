import { describe, expect, it } from 'vitest';
import { isoOf } from './text.js';

/** What isoOf answered before its fast path: the reference it must match on every input. */
function reference(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A deterministic generator (no flaky corpus). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('isoOf', () => {
  it('answers like Date.parse + toISOString on 3,000 timestamps: canonical, every day 01-31 of every month, mutated, other forms', () => {
    const next = rng(15);
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const cases: unknown[] = [undefined, null, 42, {}, '', 'now', '2026-11-30', '2026-11-30T10:00:00Z', '2026-11-30T10:00:00.1234Z', '2026-11-30T10:00:00.000+02:00', '2026-11-30 10:00:00.000Z', '+012026-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '2026-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-11-30T24:00:00.000Z', '2026-11-30T23:60:00.000Z', '2026-00-10T00:00:00.000Z', '2026-11-00T00:00:00.000Z'];
    for (let m = 1; m <= 12; m++) for (let d = 1; d <= 31; d++) cases.push(`2026-${pad(m, 2)}-${pad(d, 2)}T12:34:56.789Z`);
    for (let i = 0; i < 2_000; i++) {
      const iso = `${pad(Math.floor(next() * 10_000), 4)}-${pad(Math.floor(next() * 14), 2)}-${pad(Math.floor(next() * 33), 2)}T${pad(Math.floor(next() * 26), 2)}:${pad(Math.floor(next() * 62), 2)}:${pad(Math.floor(next() * 62), 2)}.${pad(Math.floor(next() * 1000), 3)}Z`;
      cases.push(iso);
      const at = Math.floor(next() * iso.length);
      cases.push(iso.slice(0, at) + String.fromCharCode(32 + Math.floor(next() * 90)) + iso.slice(at + 1));
    }
    expect(cases.length).toBeGreaterThan(3_000);
    let fast = 0;
    for (const c of cases) {
      expect(isoOf(c), String(c)).toBe(reference(c));
      if (typeof c === 'string' && isoOf(c) === c) fast += 1;
    }
    expect(fast).toBeGreaterThan(300); // the fast path was exercised
  });
});
