import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope, encodeEnvelopeInto, envelopeBytes, envelopeLine, parseEnvelope, parseEnvelopeJson } from './line-envelope.js';

/**
 * The compact read of an envelope (its bytes as encodeEnvelope writes them, no JSON.parse) must
 * give exactly what the JSON read gives, for envelopes as written and for any change to them.
 */
const envelope = fc.record({
  seq: fc.option(fc.oneof(fc.nat(), fc.constant(0), fc.constant(2 ** 53 - 1)), { nil: undefined }),
  keyId: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), fc.string({ maxLength: 6 }), fc.constantFrom('a"b', 'a\\b', 'é', '')),
  sealed: fc.uint8Array({ maxLength: 80 }),
});
const change = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(' ', '0', '\\', '"', ',"x":1', 'é', '\u0001', 'A') }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

function changed(line: Buffer, c: { kind: 'flip' | 'insert' | 'cut'; at: number; bit?: number; text?: string }): Buffer {
  const at = c.at % Math.max(1, line.length);
  if (c.kind === 'flip') {
    const copy = Buffer.from(line);
    copy[at]! ^= 1 << c.bit!;
    return copy;
  }
  if (c.kind === 'insert') return Buffer.concat([line.subarray(0, at), Buffer.from(c.text!), line.subarray(at)]);
  return line.subarray(0, at);
}

describe('line envelopes read from their bytes', () => {
  it('agree with the JSON read on 3,000 envelopes, as written and changed (flips, insertions, cuts)', () => {
    let compact = 0;
    fc.assert(
      fc.property(envelope, fc.array(change, { maxLength: 2 }), ({ seq, keyId, sealed }, changes) => {
        let line: Buffer = Buffer.from(encodeEnvelope(seq, keyId, Buffer.from(sealed)), 'utf8');
        // encodeEnvelope writes key ids as they are: a real one (16 hex digits) reads back.
        if (changes.length === 0 && /^[0-9a-f]{16}$/.test(keyId)) {
          const parsed = parseEnvelope(line);
          expect(parsed).toEqual({ seq, keyId, sealed: Buffer.from(sealed) });
          compact++;
        }
        for (const c of changes) line = changed(line, c);
        expect(parseEnvelope(line)).toEqual(parseEnvelopeJson(line));
      }),
      { numRuns: 3_000 },
    );
    expect(compact).toBeGreaterThan(100);
  });

  it.each([
    ['keys in another order', '{"k":"ab","s":1,"e":"AAAA","crc":"%"}'],
    ['spaces', '{"s": 1,"k":"ab","e":"AAAA","crc":"%"}'],
    ['a leading zero', '{"s":01,"k":"ab","e":"AAAA","crc":"%"}'],
    ['an escape in the key id', '{"s":1,"k":"a\\u0062","e":"AAAA","crc":"%"}'],
    ['upper-case crc', 'UPPER'],
  ])('a line in another layout is read as JSON reads it: %s', (_name, text) => {
    const good = encodeEnvelope(1, 'ab', Buffer.from([0, 0, 0]));
    const crc = /"crc":"([0-9a-f]{8})"/.exec(good)![1]!;
    const line = Buffer.from(text === 'UPPER' ? good.replace(crc, crc.toUpperCase()) : text.replace('%', crc));
    expect(parseEnvelope(line)).toEqual(parseEnvelopeJson(line));
  });

  it('agrees with the JSON read for every byte value put into the ciphertext, its CRC written to match either read', () => {
    // The compact read no longer checks the ciphertext byte by byte: the base64 decoder's length
    // must tell every byte outside the alphabet (line-envelope.ts base64Complete).
    const e = Buffer.from(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).toString('base64'), 'latin1');
    const prefix = '7.0123456789abcdef.';
    let cases = 0;
    let read = 0;
    for (let byte = 0; byte < 256; byte++) {
      for (const at of [0, 5, e.length - 2, e.length - 1]) {
        for (const mode of ['insert', 'replace'] as const) {
          const text = Buffer.concat([e.subarray(0, at), Buffer.from([byte]), e.subarray(mode === 'insert' ? at : at + 1)]);
          let jsonText: string | undefined;
          try {
            jsonText = JSON.parse(`"${text.toString('utf8')}"`) as string;
          } catch {
            jsonText = undefined;
          }
          const crcs = [crc32(Buffer.concat([Buffer.from(prefix), text])), ...(jsonText === undefined ? [] : [crc32(Buffer.from(prefix + jsonText, 'utf8'))])];
          for (const crc of crcs) {
            const line = Buffer.concat([Buffer.from('{"s":7,"k":"0123456789abcdef","e":"'), text, Buffer.from(`","crc":"${crc.toString(16).padStart(8, '0')}"}`)]);
            const compact = parseEnvelope(line);
            expect(compact).toEqual(parseEnvelopeJson(line));
            cases++;
            if (compact) read++;
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(2_000);
    // Alphabet bytes put in place of another (and '=' at the end) read as a (different) ciphertext.
    expect(read).toBeGreaterThan(100);
  });

  it('encodeEnvelopeInto writes the UTF-8 bytes of encodeEnvelope, envelopeBytes of them, where it is told; envelopeLine the same on their own', () => {
    fc.assert(
      fc.property(envelope, fc.nat({ max: 300 }), fc.nat({ max: 40 }), ({ seq, keyId, sealed }, at, spare) => {
        const text = Buffer.from(encodeEnvelope(seq, keyId, Buffer.from(sealed)), 'utf8');
        const length = envelopeBytes(seq, keyId, sealed.length);
        expect(length).toBe(text.length);
        const into = Buffer.alloc(at + length + spare, 0xee);
        expect(encodeEnvelopeInto(seq, keyId, Buffer.from(sealed).toString('base64'), into, at)).toBe(at + length);
        expect(into.subarray(at, at + length).equals(text)).toBe(true);
        // Nothing outside its place is touched.
        expect(into.subarray(0, at).every((b) => b === 0xee) && into.subarray(at + length).every((b) => b === 0xee)).toBe(true);
        expect(envelopeLine(seq, keyId, Buffer.from(sealed)).equals(text)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
