import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AnswerFrame,
  ClientFrame,
  encodeFrame,
  isNewerMajor,
  jsonDepth,
  majorOf,
  MAX_JSON_DEPTH,
  parseClientFrame,
  parseJsonStrict,
  parseServerFrame,
  pickVersion,
  PROTOCOL_VERSION,
  salvageRequestId,
  ServerFrame,
  upgradeRequiredMessage,
} from './wire.js';

const NONCE = 'A'.repeat(43) + '=';
const PROOF = 'ab'.repeat(32);

describe('parseJsonStrict', () => {
  it('parses plain JSON', () => {
    expect(parseJsonStrict('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
  });

  it.each([
    ['__proto__ at the top', '{"__proto__":{"x":1}}'],
    ['__proto__ nested', '{"a":[{"b":{"__proto__":{}}}]}'],
    ['constructor', '{"constructor":{"prototype":{"x":1}}}'],
    ['prototype', '{"a":{"prototype":1}}'],
  ])('refuses %s', (_name, text) => {
    const result = parseJsonStrict(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'BAD_FRAME', message: expect.stringContaining('forbidden key') });
  });

  it('allows those words as values and inside longer keys', () => {
    expect(parseJsonStrict('{"name":"__proto__","constructorName":"x"}').ok).toBe(true);
  });

  it('refuses nesting beyond the limit before JSON.parse sees it, even a megabyte of brackets', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(parseJsonStrict(deep)).toMatchObject({ ok: false, error: { code: 'BAD_FRAME', message: expect.stringContaining('deeper') } });
    const ok = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseJsonStrict(ok).ok).toBe(true);
    expect(parseJsonStrict('['.repeat(1_000_000)).ok).toBe(false);
    expect(parseJsonStrict('{"a":'.repeat(500_000)).ok).toBe(false);
  });

  it('does not count brackets inside strings (escaped quotes included)', () => {
    expect(jsonDepth('{"a":"[[[[\\"[[[[{{{{"}')).toBe(1);
    expect(parseJsonStrict(`{"a":"${'['.repeat(1000)}"}`).ok).toBe(true);
  });

  it('refuses malformed and truncated JSON with BAD_FRAME', () => {
    for (const text of ['', '{', '{"a":', 'nul', '{"a":1}}', "{'a':1}", '{"a":1,}', '\u0000']) {
      expect(parseJsonStrict(text)).toMatchObject({ ok: false, error: { code: 'BAD_FRAME' } });
    }
  });
});

describe('frames', () => {
  it('accepts each frame shape and keeps unknown fields', () => {
    const hello = parseServerFrame(JSON.stringify({ type: 'hello', versions: ['1.0'], nonce: NONCE, future: { x: 1 } }));
    expect(hello).toEqual({ ok: true, value: { type: 'hello', versions: ['1.0'], nonce: NONCE, future: { x: 1 } } });
    const auth = parseClientFrame(JSON.stringify({ type: 'auth', version: '1.0', proof: PROOF, clientNonce: NONCE }));
    expect(auth.ok).toBe(true);
    const request = parseClientFrame(JSON.stringify({ type: 'request', id: 'r-1', method: 'handoff.offer', params: { m: 1 }, extra: true }));
    expect(request).toEqual({ ok: true, value: { type: 'request', id: 'r-1', method: 'handoff.offer', params: { m: 1 }, extra: true } });
    expect(parseServerFrame(JSON.stringify({ type: 'answer', id: 'r-1', ok: true, status: 'accepted' })).ok).toBe(true);
    expect(parseServerFrame(JSON.stringify({ type: 'answer', id: null, ok: false, code: 'BAD_FRAME', message: 'x' })).ok).toBe(true);
    expect(parseServerFrame(JSON.stringify({ type: 'authenticated', version: '1.0', serverProof: PROOF })).ok).toBe(true);
  });

  it.each([
    ['auth with a short proof', { type: 'auth', version: '1.0', proof: 'ab' }, 'BAD_FRAME'],
    ['auth with uppercase hex', { type: 'auth', version: '1.0', proof: PROOF.toUpperCase() }, 'BAD_FRAME'],
    ['auth with a bad version', { type: 'auth', version: 'v1', proof: PROOF }, 'BAD_FRAME'],
    ['auth with a 31-byte client nonce', { type: 'auth', version: '1.0', proof: PROOF, clientNonce: 'A'.repeat(42) + '==' }, 'BAD_FRAME'],
    ['an unknown type', { type: 'hello', versions: ['1.0'], nonce: NONCE }, 'BAD_FRAME'],
    ['no type', { id: 'x' }, 'BAD_FRAME'],
    ['request without a method', { type: 'request', id: 'a' }, 'BAD_REQUEST'],
    ['request with a path as method', { type: 'request', id: 'a', method: '../x' }, 'BAD_REQUEST'],
    ['request with a numeric id', { type: 'request', id: 7, method: 'ping' }, 'BAD_REQUEST'],
    ['request with a huge id', { type: 'request', id: 'x'.repeat(65), method: 'ping' }, 'BAD_REQUEST'],
  ])('client frame: %s → %s', (_name, frame, code) => {
    expect(parseClientFrame(JSON.stringify(frame))).toMatchObject({ ok: false, error: { code } });
  });

  it('refuses answers without a code or with a forged shape', () => {
    expect(parseServerFrame(JSON.stringify({ type: 'answer', id: 'a', ok: false, message: 'm' })).ok).toBe(false);
    expect(parseServerFrame(JSON.stringify({ type: 'answer', id: 'a', ok: 'yes' })).ok).toBe(false);
    expect(parseServerFrame(JSON.stringify({ type: 'answer', id: 'a', ok: false, code: 'lower', message: 'm' })).ok).toBe(false);
  });

  it('salvages a usable request id only', () => {
    expect(salvageRequestId({ id: 'abc' })).toBe('abc');
    expect(salvageRequestId({ id: 'a b' })).toBeNull();
    expect(salvageRequestId([1])).toBeNull();
    expect(salvageRequestId(null)).toBeNull();
  });

  it('encodes one frame per line, newlines inside strings escaped', () => {
    const line = encodeFrame({ type: 'answer', id: 'a', ok: true, text: 'line1\nline2\r\u2028' });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
  });
});

describe('versions', () => {
  it('compares majors and picks a common version', () => {
    expect(PROTOCOL_VERSION).toBe('1.0');
    expect(majorOf('12.3')).toBe(12);
    expect(Number.isNaN(majorOf('x'))).toBe(true);
    expect(isNewerMajor('2.0')).toBe(true);
    expect(isNewerMajor('1.9')).toBe(false);
    expect(pickVersion(['1.4', '2.0'])).toBe('1.0');
    expect(pickVersion(['2.0'])).toBeNull();
    expect(upgradeRequiredMessage('2.0')).toMatch(/2\.0.*1\.0.*upgrade/);
  });
});

describe('frame parser properties (fast-check, 50,000 runs)', () => {
  const codes = new Set(['BAD_FRAME', 'BAD_REQUEST']);

  function checkClient(text: string): void {
    const result = parseClientFrame(text);
    if (result.ok) expect(ClientFrame.safeParse(result.value).success).toBe(true);
    else {
      expect(codes.has(result.error.code)).toBe(true);
      expect(result.error.message.length).toBeGreaterThan(0);
    }
  }
  function checkServer(text: string): void {
    const result = parseServerFrame(text);
    if (result.ok) expect(ServerFrame.safeParse(result.value).success).toBe(true);
    else expect(result.error.code).toBe('BAD_FRAME');
  }

  it('arbitrary JSON values never throw and every rejection is typed (20,000 runs)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40 }), (value) => {
        const text = JSON.stringify(value) ?? 'null';
        checkClient(text);
        checkServer(text);
      }),
      { numRuns: 20_000 },
    );
  });

  it('arbitrary text and bytes never throw (15,000 runs)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.uint8Array({ maxLength: 400 }).map((b) => new TextDecoder().decode(b))), (text) => {
        checkClient(text);
        checkServer(text);
      }),
      { numRuns: 15_000 },
    );
  });

  it('mutated valid frames: a prototype key anywhere is refused by name, other keys follow the schema (15,000 runs)', () => {
    const base = fc.oneof(
      fc.record({ type: fc.constant('request'), id: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), method: fc.constantFrom('ping', 'handoff.offer', 'task.heartbeat'), params: fc.jsonValue({ maxDepth: 6 }) }),
      fc.record({ type: fc.constant('auth'), version: fc.constantFrom('1.0', '1.9', '2.0', '0.1'), proof: fc.stringMatching(/^[0-9a-f]{64}$/) }),
    );
    const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'id', 'ok');
    fc.assert(
      fc.property(base, hostileKey, fc.jsonValue({ maxDepth: 3 }), fc.nat(), (frame, key, value, cut) => {
        // A function replacement: a `$'` in the value must not be read as a replacement pattern.
        const text = JSON.stringify(frame).replace(/^\{/, () => `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'},`);
        checkClient(text);
        checkClient(text.slice(0, cut % (text.length + 1))); // truncated
        const result = parseClientFrame(text);
        if (['__proto__', 'constructor', 'prototype'].includes(key)) {
          // The guarantee is the refusal itself: such a frame never reaches zod, a handler or a spread.
          expect(result).toEqual({ ok: false, error: { code: 'BAD_FRAME', message: `frame contains the forbidden key "${key}"` } });
        } else if (result.ok) {
          expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
          expect(ClientFrame.safeParse(JSON.parse(text)).success).toBe(true);
        }
      }),
      { numRuns: 15_000 },
    );
  });

  it('an answer frame validator accepts what the server would send', () => {
    expect(AnswerFrame.safeParse({ type: 'answer', id: 'x', ok: true, anything: [1] }).success).toBe(true);
  });
});
