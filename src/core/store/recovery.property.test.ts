import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeNewRecord, scanLog, acceptRecords, type StoredRecord } from './record-codec.js';
import { legacyRecordLine } from './test-support/legacy-record.js';

/**
 * Property tests for log recovery: damage never costs a record that precedes it. Logs mix both
 * line formats (byte CRC, and the earlier canonical-JSON CRC, by the parity of the content's
 * length), as a log written before and after issue 20 does.
 */
function buildLog(contents: string[]): { bytes: Buffer; ends: number[]; records: StoredRecord[] } {
  const encoded = contents.map((content, seq) =>
    (content.length % 2 ? encodeNewRecord : legacyRecordLine)({ role: 'user', content, id: `m-${seq}`, seq, createdAt: '2026-11-29T00:00:00.000Z', epoch: 1 } as Omit<StoredRecord, 'crc'>),
  );
  const records = encoded.map((e) => e.record);
  const chunks = encoded.map((e) => e.line);
  const ends: number[] = [];
  let at = 0;
  for (const c of chunks) ends.push((at += c.length));
  return { bytes: Buffer.concat(chunks), ends, records };
}

const contentArb = fc.string({ unit: 'binary', maxLength: 60 });

describe('log recovery properties', () => {
  it('random truncation keeps every record that ends before the cut, and only those', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 1, maxLength: 30 }), fc.nat(), (contents, cutSeed) => {
        const { bytes, ends } = buildLog(contents);
        const cut = cutSeed % (bytes.length + 1);
        const scan = scanLog(bytes.subarray(0, cut), 0);
        const whole = ends.filter((e) => e <= cut).length;
        expect(scan.records.length).toBe(whole);
        expect(scan.midDamage).toEqual([]);
        // The torn tail starts exactly where the last whole record ends.
        if (cut !== (ends[whole - 1] ?? 0)) expect(scan.tail?.start).toBe(ends[whole - 1] ?? 0);
        else expect(scan.tail).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('random byte damage never loses a record that precedes it, and valid records after it survive as mid-file data', () => {
    fc.assert(
      fc.property(fc.array(contentArb, { minLength: 2, maxLength: 30 }), fc.nat(), fc.integer({ min: 1, max: 255 }), fc.integer({ min: 1, max: 8 }), (contents, posSeed, xor, span) => {
        const { bytes, ends, records } = buildLog(contents);
        const pos = posSeed % bytes.length;
        const damaged = Buffer.from(bytes);
        for (let i = pos; i < Math.min(bytes.length, pos + span); i++) damaged[i] = damaged[i]! ^ xor;
        const scan = scanLog(damaged, 0);
        const { accepted } = acceptRecords(scan.records, new Set(), -1);
        const got = new Set(accepted.map((s) => s.record.id));
        // Every record that ends before the damage is intact.
        records.forEach((r, i) => {
          if (ends[i]! <= pos) expect(got.has(r.id)).toBe(true);
        });
        // Every record that starts after the damaged bytes (and after the line they broke) is kept.
        const lastDamaged = Math.min(bytes.length, pos + span) - 1;
        const firstAfter = ends.findIndex((e) => e > lastDamaged) + 1;
        for (let i = firstAfter + 1; i < records.length; i++) expect(got.has(records[i]!.id)).toBe(true);
        // Nothing invalid is accepted.
        for (const s of accepted) expect(s.record.content).toBe(contents[s.record.seq]);
        // Damage followed by valid records is reported mid-file (to quarantine), never as a tail to cut.
        if (scan.tail) expect(scan.records.every((s) => s.end <= scan.tail!.start)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
