import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidId } from './ids.js';
import { formatPairingCode, normalizePairingCode } from './pairing-code.js';
import { findBatonUrlInArgv, formatBatonUrl, MAX_URL_LENGTH, parseBatonUrl, type BatonLink, type KnownBatonLink } from './baton-url.js';

const H = 'h-20261129-abc';
const S = 's-20261129.def_1';

describe('parseBatonUrl: accepted links', () => {
  const accepted: Array<[string, BatonLink]> = [
    [`baton://handoff/${H}?session=${S}`, { kind: 'handoff', handoffId: H, sessionId: S }],
    [`baton://session/${S}`, { kind: 'session', sessionId: S }],
    [`BATON://session/${S}`, { kind: 'session', sessionId: S }],
    [`Baton://Handoff/${H}?session=${S}`, { kind: 'handoff', handoffId: H, sessionId: S }],
    [`baton://session/${S}/`, { kind: 'session', sessionId: S }], // one trailing slash: accepted
    [`baton://handoff/${H}/?session=${S}`, { kind: 'handoff', handoffId: H, sessionId: S }],
    ['baton://session/a', { kind: 'session', sessionId: 'a' }],
    [`baton://session/${'a'.repeat(128)}`, { kind: 'session', sessionId: 'a'.repeat(128) }],
  ];
  it.each(accepted)('%s', (input, expected) => {
    expect(parseBatonUrl(input)).toEqual(expected);
  });
});

describe('parseBatonUrl: a hostile corpus maps to unknown', () => {
  const hostile: string[] = [
    'javascript:alert(1)',
    'JAVASCRIPT://session/x',
    'file:///etc/passwd',
    'file://session/x',
    'http://session/x',
    'https://handoff/x?session=y',
    'baton:session/x',
    'baton:/session/x',
    'baton:///session/x',
    'baton://evil.com/session/x',
    'baton://sessions/x',
    'baton://settings/x',
    'baton://handoff/../x?session=y',
    'baton://session/..',
    'baton://session/../../etc/passwd',
    'baton://session/a..b',
    'baton://session/./x',
    'baton://session/x%2F..%2Fy',
    'baton://session/%2e%2e',
    'baton://handoff/x?session=a%26b',
    'baton://session/x\\..\\y',
    'baton://session/\u0445', // Cyrillic 'х'
    'baton://sеssion/x', // Cyrillic 'е' in the kind
    'baton://session/x\u200b', // zero-width space
    'baton://session/ｘ', // fullwidth
    `baton://session/${'a'.repeat(129)}`,
    `baton://handoff/x?session=${'b'.repeat(MAX_URL_LENGTH)}`,
    '-baton://session/x',
    '--baton-url=baton://session/x',
    'baton://session/-x',
    'baton://session/x\n',
    'baton://session/x\r\nX-Injected: 1',
    'baton://session/x\0',
    ' baton://session/x',
    'baton://session/x y',
    'baton://session/x\t',
    'baton://handoff/x?session=y&session=z',
    'baton://handoff/x?session=y&admin=1',
    'baton://handoff/x?session=y&',
    'baton://handoff/x?&session=y',
    'baton://handoff/x?session=',
    'baton://handoff/x?session',
    'baton://handoff/x?=y',
    'baton://handoff/x?Session=y',
    'baton://handoff/x',
    'baton://handoff/x?',
    'baton://session/x?session=y',
    'baton://session/x?',
    'baton://a@handoff/x?session=y',
    'baton://user:pass@session/x',
    'baton://session:8080/x',
    'baton://handoff:0/x?session=y',
    'baton://session/x#frag',
    'baton://handoff/x?session=y#/../../z',
    'baton://session/',
    'baton://session',
    'baton://session//x',
    'baton://session/x//',
    'baton://session/x/y',
    'baton://handoff/x/y?session=z',
    'baton://',
    'baton',
    '',
    'baton://session/x;rm -rf',
    'baton://session/$(id)',
    'baton://session/x|y',
    'baton://session/"x"',
    "baton://session/x'",
    'baton://session/<script>',
  ];

  it('has at least 40 cases', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(40);
  });

  it.each(hostile)('%j', (input) => {
    const link = parseBatonUrl(input);
    expect(link.kind).toBe('unknown');
    if (link.kind === 'unknown') expect(link.reason.length).toBeGreaterThan(0);
  });

  it.each([undefined, null, 42, {}, ['baton://session/x'], { toString: () => 'baton://session/x' }])('non-string %j', (input) => {
    expect(parseBatonUrl(input)).toMatchObject({ kind: 'unknown', reason: 'not a string' });
  });
});

describe('formatBatonUrl', () => {
  it('formats canonical URLs that parse back to the same link', () => {
    expect(formatBatonUrl({ kind: 'handoff', handoffId: H, sessionId: S })).toBe(`baton://handoff/${H}?session=${S}`);
    expect(formatBatonUrl({ kind: 'session', sessionId: S })).toBe(`baton://session/${S}`);
  });

  it('refuses ids that could not travel in a URL', () => {
    expect(() => formatBatonUrl({ kind: 'session', sessionId: '../x' })).toThrow(RangeError);
    expect(() => formatBatonUrl({ kind: 'handoff', handoffId: 'a&b', sessionId: S })).toThrow(/handoff id/);
    expect(() => formatBatonUrl({ kind: 'handoff', handoffId: H, sessionId: '-x' })).toThrow(/session id/);
  });
});

describe('findBatonUrlInArgv', () => {
  const url = `baton://session/${S}`;
  const cases: Array<[string, string[], string | null]> = [
    ['marker then one URL', ['/opt/Baton/baton', '--baton-url', url], url],
    ['marker then one URL (case-insensitive scheme)', ['app', '--baton-url', url.toUpperCase()], url.toUpperCase()],
    ['no marker', ['app', url], null],
    ['marker without a URL', ['app', '--baton-url'], null],
    ['marker then two arguments', ['app', '--baton-url', url, url], null],
    ['marker then a URL and an injected flag', ['app', '--baton-url', url, '--inspect=9229'], null],
    ['marker then a non-baton argument', ['app', '--baton-url', 'https://example.com'], null],
    ['marker twice', ['app', '--baton-url', '--baton-url', url], null],
    ['another baton URL before the marker', ['app', 'baton://session/other', '--baton-url', url], null],
    ['the marker glued to the URL', ['app', `--baton-url=${url}`], null],
    ['a URL with the flag after it', ['app', url, '--baton-url'], null],
    ['custom marker', ['app', '--protocol-launcher', url], null],
  ];
  it.each(cases)('%s', (_name, argv, expected) => {
    expect(findBatonUrlInArgv(argv)).toBe(expected);
  });
  it('honours a custom marker', () => {
    expect(findBatonUrlInArgv(['app', '--protocol-launcher', url], '--protocol-launcher')).toBe(url);
  });
});

describe('parseBatonUrl: properties (fast-check)', () => {
  const idArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/).filter(isValidId);
  const linkArb: fc.Arbitrary<KnownBatonLink> = fc.oneof(
    fc.record({ kind: fc.constant('session' as const), sessionId: idArb }),
    fc.record({ kind: fc.constant('handoff' as const), handoffId: idArb, sessionId: idArb }),
  );

  function checkResult(link: BatonLink): void {
    if (link.kind === 'unknown') {
      expect(typeof link.reason).toBe('string');
      return;
    }
    if (link.kind === 'pair') {
      expect(normalizePairingCode(link.code)).toBe(link.code);
      return;
    }
    // Whatever is accepted carries only valid ids.
    expect(isValidId(link.sessionId)).toBe(true);
    if (link.kind === 'handoff') expect(isValidId(link.handoffId)).toBe(true);
  }

  it('never throws on arbitrary strings, and accepts only valid ids (20,000 runs)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 })), (input) => {
        checkResult(parseBatonUrl(input));
      }),
      { numRuns: 20_000 },
    );
  });

  it('round-trips every valid link through formatBatonUrl (10,000 runs)', () => {
    fc.assert(
      fc.property(linkArb, (link) => {
        expect(parseBatonUrl(formatBatonUrl(link))).toEqual(link);
      }),
      { numRuns: 10_000 },
    );
  });

  it('a mutated valid URL is either refused or still carries only valid ids (20,000 runs)', () => {
    const hostileChars = fc.constantFrom('%', '#', '@', ':', '/', '\\', '?', '&', '=', '.', '..', '-', ' ', '\n', '\0', '\u0430', '%2F', '/..', '?session=x', '&session=y');
    const mutation = fc.record({ at: fc.nat(), insert: fc.oneof(hostileChars, fc.string({ maxLength: 4 })), drop: fc.nat({ max: 3 }) });
    fc.assert(
      fc.property(linkArb, fc.array(mutation, { minLength: 1, maxLength: 3 }), (link, mutations) => {
        let url = formatBatonUrl(link);
        for (const m of mutations) {
          const at = m.at % (url.length + 1);
          url = url.slice(0, at) + m.insert + url.slice(at + m.drop);
        }
        const parsed = parseBatonUrl(url);
        checkResult(parsed);
        // If it still parses, the canonical form of what was understood is itself accepted.
        if (parsed.kind !== 'unknown') expect(parseBatonUrl(formatBatonUrl(parsed))).toEqual(parsed);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('baton://pair (issue 13)', () => {
  const bytes = Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 255);
  const code = formatPairingCode(bytes);
  const compact = code.replace(/-/g, '');
  const accepted: Array<[string, string]> = [
    [`baton://pair?code=${code}`, compact],
    [`baton://pair?code=${compact}`, compact],
    [`baton://pair?code=${code.toLowerCase()}`, compact],
    [`BATON://PAIR?code=${code}`, compact],
    [`baton://pair/?code=${code}`, compact],
  ];
  it.each(accepted)('accepts %s', (input, expected) => {
    expect(parseBatonUrl(input)).toEqual({ kind: 'pair', code: expected });
  });
  const refused: string[] = [
    'baton://pair',
    'baton://pair?',
    `baton://pair?code=${compact.slice(1)}`,
    `baton://pair?code=${compact}A`,
    `baton://pair?code=${compact.replace('A', '1')}`.replace(/[01]/, '1'),
    `baton://pair?code=${compact.slice(0, 31)}8`,
    `baton://pair?code=${compact}&code=${compact}`,
    `baton://pair?code=${compact}&session=x`,
    `baton://pair?token=${compact}`,
    `baton://pair/x?code=${compact}`,
    `baton://pair?code=${compact.slice(0, 16)}%20${compact.slice(16)}`,
    `baton://pair?code=${compact} `,
    `baton://pair?code=${compact}#x`,
    `baton://pairs?code=${compact}`,
    `baton://user@pair?code=${compact}`,
    `baton://pair:80?code=${compact}`,
    `baton://pair?code=${'A'.repeat(2000)}`,
    'baton://pair?code=',
    'baton://pair?=x',
  ];
  it.each(refused)('refuses %s', (input) => {
    expect(parseBatonUrl(input).kind).toBe('unknown');
  });
  it('formats the canonical link and round-trips 160-bit codes', () => {
    expect(formatBatonUrl({ kind: 'pair', code })).toBe(`baton://pair?code=${compact}`);
    expect(() => formatBatonUrl({ kind: 'pair', code: 'nope' })).toThrow(RangeError);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (raw) => {
        const link = parseBatonUrl(formatBatonUrl({ kind: 'pair', code: formatPairingCode(raw) }));
        expect(link.kind).toBe('pair');
      }),
      { numRuns: 2_000 },
    );
  });
});
