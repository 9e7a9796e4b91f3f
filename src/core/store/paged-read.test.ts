import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { readRecords } from './log-reader.js';
import { encodeNewRecord } from './record-codec.js';
import { MESSAGES_FILE } from './message-log.js';
import { offsetOfSeq, PAGE_WINDOW_BYTES, readBackward, type ReadableFile } from './paged-read.js';
import { makeTempDir } from './test-support/temp-dir.js';

const COUNT = 5_000;
let tmp: { dir: string; cleanup: () => Promise<void> };
let size = 0;

/** A real log: 5,000 records, a few megabyte-long lines, damaged lines in the middle, a torn tail. */
beforeAll(async () => {
  tmp = await makeTempDir();
  const parts: Buffer[] = [];
  for (let seq = 0; seq < COUNT; seq++) {
    const content = seq % 997 === 0 ? 'x'.repeat(PAGE_WINDOW_BYTES * 3) : `message ${seq} ${'y'.repeat(seq % 300)}`;
    parts.push(encodeNewRecord({ seq, id: `m-${seq}`, role: seq % 2 ? 'assistant' : 'user', content, createdAt: '2026-11-30T10:00:00Z', epoch: 0 }).line);
    if (seq % 1_234 === 17) parts.push(Buffer.from('{"damaged": tru\n'));
  }
  parts.push(Buffer.from('{"seq": 99999, "torn'));
  const buf = Buffer.concat(parts);
  size = buf.length;
  await writeFile(join(tmp.dir, MESSAGES_FILE), buf);
});
afterAll(() => tmp.cleanup());

const seqs = (records: { seq: number }[]) => records.map((r) => r.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('paged reads by seq', () => {
  it('the newest page, an older page before a seq, and a page after a seq match the log', async () => {
    const read = (options: Parameters<typeof readRecords>[2]) => readRecords(nodeDurableFs, tmp.dir, options);
    expect(seqs((await read({ tail: 200 })).records)).toEqual(range(COUNT - 200, COUNT));
    expect(seqs((await read({ tail: 200, beforeSeq: 4_800 })).records)).toEqual(range(4_600, 4_800));
    expect(seqs((await read({ tail: 200, beforeSeq: 150 })).records)).toEqual(range(0, 150));
    expect(seqs((await read({ tail: 10, beforeSeq: 0 })).records)).toEqual([]);
    expect(seqs((await read({ afterSeq: 2_499, limit: 300 })).records)).toEqual(range(2_500, 2_800));
    expect(seqs((await read({ afterSeq: COUNT - 5 })).records)).toEqual(range(COUNT - 4, COUNT));
    expect(seqs((await read({ afterSeq: COUNT + 10 })).records)).toEqual([]);
  });

  it('finds the offset of 300 random seqs, across long lines and damage, exactly', async () => {
    const file = await open(join(tmp.dir, MESSAGES_FILE), 'r');
    try {
      const reader: ReadableFile = { read: async (length, position) => (await file.read(Buffer.alloc(length), 0, length, position)).buffer.subarray(0, length) };
      for (let i = 0; i < 300; i++) {
        const seq = (i * 7_919) % COUNT;
        const offset = await offsetOfSeq(reader, size, seq);
        const line = await reader.read(200, offset);
        expect(line.toString('utf8')).toContain(`"seq":${seq},`);
        // The page just before it ends at seq - 1.
        const before = await readBackward(reader, offset, 3);
        expect(seqs(before.records)).toEqual(range(Math.max(0, seq - 3), seq));
      }
    } finally {
      await file.close();
    }
  });

  it('reads a page of a 50,000-message log without reading the log: a few windows, not its size', async () => {
    const big = join(tmp.dir, 'big');
    await mkdir(big);
    const lines = Array.from({ length: 50_000 }, (_, seq) => encodeNewRecord({ seq, id: `b-${seq}`, role: 'user', content: `message ${seq} ${'z'.repeat(seq % 400)}`, createdAt: '2026-11-30T10:00:00Z', epoch: 0 }).line);
    const buf = Buffer.concat(lines);
    await writeFile(join(big, MESSAGES_FILE), buf);
    let bytes = 0;
    const file = await open(join(big, MESSAGES_FILE), 'r');
    const counting: ReadableFile = {
      read: async (length, position) => {
        bytes += length;
        return (await file.read(Buffer.alloc(length), 0, length, position)).buffer.subarray(0, length);
      },
    };
    try {
      const offset = await offsetOfSeq(counting, buf.length, 20_000);
      const page = await readBackward(counting, offset, 100);
      expect(seqs(page.records)).toEqual(range(19_900, 20_000));
    } finally {
      await file.close();
    }
    expect(buf.length).toBeGreaterThan(10_000_000);
    expect(bytes).toBeLessThan(buf.length / 20);
  });
});
