import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptRecords, decodeLine, encodeNewRecord, scanLog, type StoredRecord } from './record-codec.js';
import { decodeRecordKeys } from './record-keys.js';
import { LineIdSet } from './line-id-set.js';
import { streamRecords } from './stream-records.js';
import { legacyRecordLine } from './test-support/legacy-record.js';

const inMemory = (bytes: Buffer) => ({ read: async (length: number, position: number) => Buffer.from(bytes.subarray(position, position + length)) });
const line = (seq: number, id: string, legacy = false) =>
  (legacy ? legacyRecordLine : encodeNewRecord)({ role: 'user', content: `c${seq}`, id, seq, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 } as Omit<StoredRecord, 'crc'>).line;

/** Streams with the full decoder, and checks the keys-only decoder (record-keys.ts) accepts the same records, lines and damage. */
async function streamed(bytes: Buffer) {
  const records: StoredRecord[] = [];
  const lines: string[] = [];
  const result = await streamRecords(inMemory(bytes), bytes.length, decodeLine, (r, l) => void (records.push(r), lines.push(l.toString('latin1'))));
  const keyed: Array<[string, number]> = [];
  const keyedLines: string[] = [];
  const byKeys = await streamRecords(inMemory(bytes), bytes.length, decodeRecordKeys, (k, l) => void (keyed.push([k.id, k.seq]), keyedLines.push(l.toString('latin1'))));
  expect(keyed).toEqual(records.map((r) => [r.id, r.seq]));
  expect(keyedLines).toEqual(lines);
  expect(byKeys).toEqual(result);
  return { records, ...result };
}

/** What the whole-buffer read (readRecords) gives for the same bytes. */
function whole(bytes: Buffer) {
  const scan = scanLog(bytes, 0);
  return { records: acceptRecords(scan.records, new Set(), -1).accepted.map((s) => s.record), midDamage: scan.midDamage };
}

describe('streaming the records of a log', () => {
  it('agrees with the whole read on random logs: repeated ids, stale seqs, damage, both formats, a torn end (400 cases)', async () => {
    const entry = fc.record({ seq: fc.integer({ min: 0, max: 40 }), id: fc.constantFrom('a', 'b', 'c', '7yzx', 'e6ad', 'm-1', 'm-2'), legacy: fc.boolean(), damage: fc.nat({ max: 9 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 25 }), fc.nat({ max: 30 }), async (entries, torn) => {
        const parts = entries.map((e) => {
          const l = line(e.seq, e.id, e.legacy);
          if (e.damage === 0) l[Math.floor(l.length / 2)]! ^= 0x20; // one damaged line in ten
          return l;
        });
        const full = Buffer.concat(parts);
        const bytes = full.subarray(0, Math.max(0, full.length - torn));
        const got = await streamed(bytes);
        const want = whole(bytes);
        expect(got.records).toEqual(want.records);
        expect(got.midDamage).toEqual(want.midDamage);
        expect(got.count).toBe(want.records.length);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps two ids whose hashes collide, and drops a repeat of either', async () => {
    expect(LineIdSet.hashOf('7yzx')).toBe(LineIdSet.hashOf('e6ad'));
    const got = await streamed(Buffer.concat([line(0, '7yzx'), line(1, 'e6ad'), line(2, '7yzx'), line(3, 'e6ad', true), line(4, 'x')]));
    expect(got.records.map((r) => [r.seq, r.id])).toEqual([
      [0, '7yzx'],
      [1, 'e6ad'],
      [4, 'x'],
    ]);
  });

  it('the id table grows past its first size and still finds every id', () => {
    const set = new LineIdSet();
    for (let i = 0; i < 50_000; i++) set.add(LineIdSet.hashOf(`id-${i}`), i * 100, 99);
    expect(set.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) expect(set.candidates(LineIdSet.hashOf(`id-${i}`))).toContainEqual({ start: i * 100, length: 99 });
  });

  it('the id table sized up front (reserve), before and after ids are in it, still finds every id and no other', () => {
    const set = new LineIdSet();
    for (let i = 0; i < 1_000; i++) set.add(LineIdSet.hashOf(`id-${i}`), i * 100, 99);
    set.reserve(60_000);
    for (let i = 1_000; i < 60_000; i++) set.add(LineIdSet.hashOf(`id-${i}`), i * 100, 99);
    // A reservation past the cap, or below what is held, changes nothing.
    set.reserve(1e12);
    set.reserve(10);
    expect(set.size).toBe(60_000);
    for (let i = 0; i < 60_000; i += 499) expect(set.candidates(LineIdSet.hashOf(`id-${i}`))).toContainEqual({ start: i * 100, length: 99 });
    expect(set.candidates(LineIdSet.hashOf('never-added'))).toEqual([]);
  });
});
