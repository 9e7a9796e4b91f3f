import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, formatMessageTime, relativeTime } from './relative-time';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const ago = (ms: number): string => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe('relativeTime', () => {
  const cases: Array<[string, string, string]> = [
    ['now', ago(0), 'just now'],
    ['59 s', ago(59_000), 'just now'],
    ['a little in the future (clock skew)', ago(-30_000), 'just now'],
    ['1 min', ago(MIN), '1 min ago'],
    ['59 min', ago(59 * MIN), '59 min ago'],
    ['1 h', ago(60 * MIN), '1 h ago'],
    ['23 h', ago(23 * 60 * MIN), '23 h ago'],
    ['1 day', ago(24 * 60 * MIN), 'yesterday'],
    ['3 days', ago(3 * 24 * 60 * MIN), '3 days ago'],
    ['garbage', 'not a date', 'unknown time'],
  ];
  for (const [name, iso, expected] of cases) {
    it(name, () => expect(relativeTime(iso, NOW)).toBe(expected));
  }

  it('older than a week shows a date, not "N days ago"', () => {
    const text = relativeTime(ago(30 * 24 * 60 * MIN), NOW);
    expect(text).not.toMatch(/ago|yesterday/);
    expect(text).toMatch(/\d/);
  });

  it('far in the future shows a date rather than "just now"', () => {
    expect(relativeTime(ago(-10 * MIN), NOW)).not.toBe('just now');
  });

  it('formatDateTime falls back to the raw text for garbage', () => {
    expect(formatDateTime('???')).toBe('???');
    expect(formatDateTime('2026-11-29T12:00:00.000Z')).toMatch(/2026/);
  });
});

describe('formatMessageTime', () => {
  it('today: only the clock; another day: date and clock; garbage: as given', () => {
    const today = formatMessageTime(new Date(NOW - 5 * MIN).toISOString(), NOW);
    expect(today).toMatch(/\d{1,2}:\d{2}/);
    expect(today).not.toMatch(/Nov/);
    const older = formatMessageTime(new Date(NOW - 3 * 24 * 60 * MIN).toISOString(), NOW);
    expect(older.length).toBeGreaterThan(today.length);
    expect(formatMessageTime('x', NOW)).toBe('x');
  });
});

describe('the locale formats', () => {
  afterEach(() => vi.restoreAllMocks());

  it('read as toLocale*String does, from formats made once: a screen of rows builds no Intl.DateTimeFormat per row', () => {
    const times = Array.from({ length: 200 }, (_, i) => NOW - i * 37 * 60 * MIN);
    const expected = times.map((at) => [
      new Date(at).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
      new Date(at).toLocaleDateString(undefined, new Date(at).getFullYear() === new Date(NOW).getFullYear() ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' }),
    ]);
    // Each of these builds a new Intl.DateTimeFormat per call.
    const perCall = [vi.spyOn(Date.prototype, 'toLocaleString'), vi.spyOn(Date.prototype, 'toLocaleDateString'), vi.spyOn(Date.prototype, 'toLocaleTimeString')];
    const made = times.map((at) => [formatDateTime(new Date(at).toISOString()), formatDate(at, NOW)]);
    formatMessageTime(new Date(NOW - 3 * 24 * 60 * MIN).toISOString(), NOW);
    expect(made).toEqual(expected);
    for (const spy of perCall) expect(spy).not.toHaveBeenCalled();
  });
});

describe('prepareListDates', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes the list rows\' date format once, ahead: their dates then make none', async () => {
    vi.resetModules();
    const fresh = await import('./relative-time');
    const Real = Intl.DateTimeFormat;
    // Counts what is made; `new` on the spy returns the real format.
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      return new Real(...args);
    } as typeof Intl.DateTimeFormat);
    fresh.prepareListDates();
    expect(made).toHaveBeenCalledTimes(1);
    const thisYear = NOW - 20 * 24 * 60 * MIN;
    expect(fresh.relativeTime(new Date(thisYear).toISOString(), NOW)).toBe(new Date(thisYear).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
    expect(made).toHaveBeenCalledTimes(1);
  });
});
