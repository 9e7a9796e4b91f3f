import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLine, encodeNewRecord, type StoredRecord } from './record-codec.js';
import { decodeRecordKeys, walkIdSeq, walkIdSeqFromEnd } from './record-keys.js';
import { LineIdSet } from './line-id-set.js';
import { legacyRecordLine } from './test-support/legacy-record.js';

const body = (line: Buffer) => line.subarray(0, line.length - 1);
const sealed = (fields: Record<string, unknown>) => body(encodeNewRecord({ role: 'user', content: 'c', createdAt: '2026-11-30T00:00:00.000Z', epoch: 1, ...fields } as Omit<StoredRecord, 'crc'>).line);

/** Any JSON value, nested, with keys that look like the ones the walk looks for. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.constantFrom('"id":"x"', ',"seq":1', '\\', '"', '{', '}', '[', ']', ',', ':'),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom('id', 'seq', 'i\\d', 'se"q', '', 'bcrc', 'crc'), fc.string()), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('record keys without a parse', () => {
  it('neither walk (forwards, from the end) disagrees with JSON.parse on a JSON.stringify line: same id and seq, or no answer (3,000 objects)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(fc.constantFrom('role', 'content', 'toolCalls', 'meta', 'id', 'seq', 'x'), fc.string({ unit: 'binary', maxLength: 6 })), jsonValue, { maxKeys: 8 }),
        fc.option(fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), fc.constantFrom('m-1', 'a"b', 'a\\b', 'é', '😀', '\u2028')), { nil: undefined }),
        fc.option(fc.oneof(fc.nat(), fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 53), fc.constant('7')), { nil: undefined }),
        (rest, id, seq) => {
          const value: Record<string, unknown> = { ...rest };
          if (id !== undefined) value.id = id;
          if (seq !== undefined) value.seq = seq;
          const line = Buffer.from(JSON.stringify(value), 'utf8');
          const parsed = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
          for (const walk of [walkIdSeq, walkIdSeqFromEnd]) {
            const walked = walk(line);
            if (walked !== undefined) expect(walked, walk.name).toEqual({ id: parsed.id, seq: parsed.seq });
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it.each([
    ['plain', sealed({ id: 'm-1', seq: 7 }), { id: 'm-1', seq: 7 }],
    ['id and seq first', Buffer.from('{"seq":3,"id":"a","x":1}'), { id: 'a', seq: 3 }],
    ['nested id and seq are not the record’s', Buffer.from('{"toolCalls":[{"id":"t","seq":9}],"meta":{"id":"n"},"id":"m","seq":2}'), { id: 'm', seq: 2 }],
    ['strings holding keys and brackets', Buffer.from('{"content":"\\"id\\":\\"no\\"}]{[\\\\","id":"m","seq":0}'), { id: 'm', seq: 0 }],
    ['a non-ASCII id', Buffer.from('{"id":"é😀","seq":1}'), { id: 'é😀', seq: 1 }],
  ])('finds the top-level id and seq: %s', (_name, line, want) => {
    expect(walkIdSeq(line)).toEqual(want);
  });

  it.each([
    ['the writer’s layout, from the end', sealed({ id: 'm-1', seq: 7 }), { id: 'm-1', seq: 7 }],
    ['the last of two ids and seqs, as JSON.parse reads them', Buffer.from('{"id":"a","seq":1,"x":[1],"id":"b","seq":2}'), { id: 'b', seq: 2 }],
    ['strings ending in backslashes and quotes', Buffer.from('{"c":"x\\\\","d":"\\"}","id":"m","seq":5}'), { id: 'm', seq: 5 }],
  ])('the walk from the end finds them: %s', (_name, line, want) => {
    expect(walkIdSeqFromEnd(line)).toEqual(want);
  });

  it.each([
    ['a nested value after them', '{"id":"a","seq":1,"t":[{"id":"b"}]}'],
    ['an escaped key after them', '{"id":"a","seq":1,"i\\u0064":"b"}'],
    ['escaped id', '{"seq":1,"id":"a\\"b"}'],
    ['fractional seq', '{"id":"a","seq":1.5}'],
    ['negative seq', '{"id":"a","seq":-1}'],
    ['empty value', '{"id":"a","seq":}'],
    ['spaces', '{"id":"a", "seq":1}'],
  ])('the walk from the end leaves the rest to the forward walk or the parse: %s', (_name, text) => {
    expect(walkIdSeqFromEnd(Buffer.from(text))).toBeUndefined();
  });

  it.each([
    ['escaped id', '{"id":"a\\"b","seq":1}'],
    ['escaped key', '{"i\\u0064":"a","seq":1}'],
    ['id twice', '{"id":"a","id":"b","seq":1}'],
    ['seq twice', '{"id":"a","seq":1,"seq":2}'],
    ['negative seq', '{"id":"a","seq":-1}'],
    ['fractional seq', '{"id":"a","seq":1.5}'],
    ['exponent seq', '{"id":"a","seq":1e3}'],
    ['leading zero', '{"id":"a","seq":01}'],
    ['string seq', '{"id":"a","seq":"1"}'],
    ['empty id', '{"id":"","seq":1}'],
    ['number id', '{"id":1,"seq":1}'],
    ['no id', '{"seq":1}'],
    ['no seq', '{"id":"a"}'],
    ['not an object', '["id","a"]'],
    ['spaces', '{"id": "a","seq":1}'],
    ['unterminated string', '{"id":"a,"seq":1}'],
    ['unbalanced nesting', '{"x":[1,{"y":2],"id":"a","seq":1}'],
    ['trailing bytes', '{"id":"a","seq":1}x'],
    ['too many digits', `{"id":"a","seq":${'9'.repeat(16)}}`],
  ])('leaves a line it does not vouch for to the parse: %s', (_name, text) => {
    expect(walkIdSeq(Buffer.from(text))).toBeUndefined();
  });

  it('decodeRecordKeys: a sealed line gives keys without the record; earlier-format and damaged lines go through decodeLine', () => {
    const line = sealed({ id: 'm-1', seq: 4 });
    const keys = decodeRecordKeys(line)!;
    expect({ id: keys.id, seq: keys.seq, idHash: keys.idHash, record: keys.record }).toEqual({ id: 'm-1', seq: 4, idHash: LineIdSet.hashOf('m-1'), record: undefined });
    const legacy = legacyRecordLine({ role: 'user', content: 'old', id: 'm-0', seq: 1, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 });
    expect(decodeRecordKeys(body(legacy.line))).toEqual({ id: 'm-0', seq: 1, record: legacy.record });
    // An id with an escape: the walk declines, the parse answers (same keys, and the record).
    const escaped = sealed({ id: 'q"1', seq: 5 });
    expect(decodeRecordKeys(escaped)).toEqual({ id: 'q"1', seq: 5, record: decodeLine(escaped) });
    for (let i = 0; i < line.length; i++) {
      const damaged = Buffer.from(line);
      damaged[i]! ^= 0x01;
      expect(decodeRecordKeys(damaged)).toBeUndefined();
    }
  });

  it('decodeRecordKeys over 2,000 generated sealed records: the id and seq decodeLine reads; the hash taken from the bytes is hashOf(id); the id is read from the line only when asked', () => {
    let hashed = 0;
    let asString = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), fc.stringMatching(/^[ -~]{1,30}$/), fc.constantFrom('m-1', 'é', '😀', 'a"b', 'a\\b', '\u2028', 'x\u0000y')),
        fc.nat(),
        (id, seq) => {
          const line = sealed({ id, seq });
          const want = decodeLine(line)!;
          const keys = decodeRecordKeys(line)!;
          if (keys.idHash !== undefined) {
            hashed++;
            expect(keys.idHash).toBe(LineIdSet.hashOf(want.id));
            // Read during the call, the id stays what it was when the line changes afterwards (the show's writer splices lines in place).
            const copy = Buffer.from(line);
            const fresh = decodeRecordKeys(copy)!;
            expect(fresh.id).toBe(want.id);
            copy.fill(0x41);
            expect(fresh.id).toBe(want.id);
          } else asString++;
          expect([keys.id, keys.seq]).toEqual([want.id, want.seq]);
          expect(LineIdSet.hashOfAscii(Buffer.from(want.id), 0, Buffer.byteLength(want.id)) === -1).toBe(!/^[\x00-\x7f]*$/.test(want.id));
        },
      ),
      { numRuns: 2_000 },
    );
    expect(hashed).toBeGreaterThan(500);
    expect(asString).toBeGreaterThan(50);
  });
});
