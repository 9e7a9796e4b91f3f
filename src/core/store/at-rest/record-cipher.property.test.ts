import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeLine, encodeNewRecord, plainRecordCodec, scanLog, type StoredRecord } from '../record-codec.js';
import { AtRestCipher } from './at-rest-cipher.js';
import { newDataKey, sealedBytes } from './aead.js';
import { envelopeBytes } from './line-envelope.js';

/**
 * Sealed records under adversity: a torn, flipped, truncated, moved or re-keyed line is never read
 * as a different record; it is damage (undefined), and recovery keeps every whole record before it.
 */
const ROOT = '/data';
const key = newDataKey();
const cipher = new AtRestCipher(ROOT, key);
const contentArb = fc.string({ unit: 'binary', maxLength: 80 });

function sealedLog(sessionId: string, contents: string[]): { bytes: Buffer; ends: number[]; records: StoredRecord[] } {
  const codec = cipher.recordCodec(sessionId);
  const encoded = contents.map((content, seq) => encodeNewRecord({ role: 'assistant', content, id: `m-${seq}`, seq, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 } as Omit<StoredRecord, 'crc'>));
  const records = encoded.map((e) => e.record);
  const chunks = encoded.map((e) => codec.sealLine(e.record.seq, e.line));
  const ends: number[] = [];
  let at = 0;
  for (const c of chunks) ends.push((at += c.length));
  return { bytes: Buffer.concat(chunks), ends, records };
}

describe('sealed message records', () => {
  it('round-trip, and no plaintext byte of the content appears on disk', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 12, maxLength: 80 }), { minLength: 1, maxLength: 20 }), (contents) => {
        const { bytes, records } = sealedLog('s-1', contents);
        const scan = scanLog(bytes, 0, cipher.recordCodec('s-1'));
        expect(scan.records.map((r) => r.record)).toEqual(records);
        for (const c of contents) expect(bytes.includes(Buffer.from(JSON.stringify(c).slice(1, -1)))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('any single flipped bit makes that line damage, never another record', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 1, maxLength: 8 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (contents, at, bit) => {
        const { bytes, ends, records } = sealedLog('s-1', contents);
        const pos = at % bytes.length;
        const damaged = Buffer.from(bytes);
        damaged[pos]! ^= 1 << bit;
        const scan = scanLog(damaged, 0, cipher.recordCodec('s-1'));
        const hit = ends.findIndex((e) => pos < e);
        // Every record read back is one that was written, unchanged; the hit one is gone unless the flip
        // landed on a byte the line does not depend on (none: the CRC covers all of it, the newline splits lines).
        for (const r of scan.records) expect(records[r.record.seq]).toEqual(r.record);
        expect(scan.records.some((r) => r.record.seq === hit)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('random truncation keeps every record that ends before the cut, and only those', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 1, maxLength: 20 }), fc.nat(), (contents, seed) => {
        const { bytes, ends } = sealedLog('s-1', contents);
        const cut = seed % (bytes.length + 1);
        const scan = scanLog(bytes.subarray(0, cut), 0, cipher.recordCodec('s-1'));
        expect(scan.records.length).toBe(ends.filter((e) => e <= cut).length);
        expect(scan.midDamage).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('a line moved to another session or read with another key is refused; one moved within the log keeps the seq it was sealed with', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 2, maxLength: 10 }), fc.string({ minLength: 1, maxLength: 20, unit: fc.constantFrom(...'abcdef0123456789-') }), (contents, other) => {
        const { bytes, ends } = sealedLog('s-1', contents);
        expect(scanLog(bytes, 0, cipher.recordCodec(`s-${other}x`)).records).toEqual([]);
        expect(scanLog(bytes, 0, new AtRestCipher(ROOT, newDataKey()).recordCodec('s-1')).records).toEqual([]);
        // Swap the first two lines: each is now at the other's position, but its seq is sealed in.
        const first = bytes.subarray(0, ends[0]);
        const second = bytes.subarray(ends[0], ends[1]);
        const swapped = Buffer.concat([second, first, bytes.subarray(ends[1])]);
        const scan = scanLog(swapped, 0, cipher.recordCodec('s-1'));
        expect(scan.records.map((r) => r.record.seq).slice(0, 2)).toEqual([1, 0]);
      }),
      { numRuns: 200 },
    );
  });

  it('sealed into a buffer (the landing\'s chunk), a line is one envelope and its \\n where it was told, and opens to the record', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 1, maxLength: 12 }), fc.nat({ max: 64 }), (contents, gap) => {
        const codec = cipher.recordCodec('s-1');
        const into = Buffer.alloc(64 * 1024, 0xee);
        let at = gap;
        const ends: number[] = [];
        for (const [seq, content] of contents.entries()) {
          const { record, line } = encodeNewRecord({ role: 'user', content, id: `m-${seq}`, seq, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 } as Omit<StoredRecord, 'crc'>);
          const length = codec.sealLineInto(seq, line.subarray(0, line.length - 1), into, at)!;
          // As long as sealLine's line for the same record (only the nonce differs).
          expect(length).toBe(codec.sealLine(seq, line).length);
          expect(length).toBe(envelopeBytes(seq, key.keyId, sealedBytes(line.length - 1)) + 1);
          expect(into[at + length - 1]).toBe(0x0a);
          expect(codec.decode(into.subarray(at, at + length - 1))).toEqual(record);
          at += length;
          ends.push(at);
        }
        expect(into.subarray(0, gap).every((b) => b === 0xee) && into.subarray(at).every((b) => b === 0xee)).toBe(true);
        const scan = scanLog(into.subarray(gap, at), gap, codec);
        expect(scan.records.map((r) => r.end)).toEqual(ends);
      }),
      { numRuns: 200 },
    );
  });

  it('sealLineInto declines a line that might not fit, sealing and writing nothing; the plain codec copies the line and its \\n', () => {
    const codec = cipher.recordCodec('s-1');
    const { line } = encodeNewRecord({ role: 'user', content: 'x'.repeat(100), id: 'm-0', seq: 0, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 } as Omit<StoredRecord, 'crc'>);
    const body = line.subarray(0, line.length - 1);
    const length = envelopeBytes(0, key.keyId, sealedBytes(body.length)) + 1;
    const into = Buffer.alloc(length + 10, 0xee);
    expect(codec.sealLineInto(0, body, into, 11)).toBeUndefined();
    expect(into.every((b) => b === 0xee)).toBe(true);
    expect(codec.sealLineInto(0, body, into, 10)).toBe(length);

    const plain = Buffer.alloc(line.length + 3, 0xee);
    expect(plainRecordCodec.sealLineInto(0, body, plain, 4)).toBeUndefined();
    expect(plain.every((b) => b === 0xee)).toBe(true);
    expect(plainRecordCodec.sealLineInto(0, body, plain, 3)).toBe(line.length);
    expect(plain.subarray(3).equals(line)).toBe(true);
    expect(decodeLine(plain.subarray(3, plain.length - 1))).toBeDefined();
  });
});
