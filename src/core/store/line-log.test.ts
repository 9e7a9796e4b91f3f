import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { LAST_LINE_PROBE_BYTES, LineLog, TORN_TAIL_WINDOW_BYTES } from './line-log.js';
import { decodeSealedLine, encodeSealedLine, scanLines } from './record-codec.js';
import { makeTempDir } from './test-support/temp-dir.js';

// An append checks the last line first (issue 20: events.jsonl is appended by every handoff) and
// scans back from the end only when that line is not whole and valid. Whatever the end of the
// file, the bytes kept must be those the scan alone keeps: this oracle is that scan, over a Buffer.
function keptByScan(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  for (let window = TORN_TAIL_WINDOW_BYTES; ; window *= 2) {
    const start = Math.max(0, bytes.length - window);
    const buf = bytes.subarray(start);
    const first = start === 0 ? 0 : buf.indexOf(0x0a) + 1;
    const scan = first === 0 && start > 0 ? undefined : scanLines(buf.subarray(first), start + first, decodeSealedLine);
    if (scan && (scan.records.length > 0 || start === 0)) return scan.tail ? scan.tail.start : bytes.length;
  }
}

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir('baton-line-log-');
});
afterAll(async () => {
  await tmp.cleanup();
});

/** Logs ending every way a log can end: whole lines, torn ones, garbage, NULs, long lines, mid-file damage. */
function corpus(): { name: string; bytes: Buffer }[] {
  const random = seededRandom(2026_1201);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const line = (size: number) => encodeSealedLine({ at: '2026-12-01T00:00:00.000Z', note: 'x'.repeat(size) });
  const sizes = [0, 10, 200, LAST_LINE_PROBE_BYTES - 60, LAST_LINE_PROBE_BYTES, LAST_LINE_PROBE_BYTES + 100, 20_000, TORN_TAIL_WINDOW_BYTES + 10];
  const endings: [string, (last: Buffer) => Buffer][] = [
    ['whole', () => Buffer.alloc(0)],
    ['torn copy of a line', (last) => last.subarray(0, 1 + Math.floor(random() * (last.length - 2)))],
    ['garbage line', () => Buffer.from('not json at all\n')],
    ['empty line', () => Buffer.from('\n')],
    ['NULs of a power loss', () => Buffer.alloc(1 + Math.floor(random() * 5000))],
    ['line with a wrong crc', (last) => Buffer.from(last.toString('utf8').replace('"crc":"', '"crc":"0'))],
    ['JSON array line', () => Buffer.from('[1,2,3]\n')],
    ['CR before the newline', (last) => Buffer.concat([last.subarray(0, last.length - 1), Buffer.from('\r\n')])],
    ['valid line without its newline', (last) => last.subarray(0, last.length - 1)],
    ['damage then a valid line', () => Buffer.concat([Buffer.from('{"torn":'), line(50)])],
  ];
  const cases: { name: string; bytes: Buffer }[] = [{ name: 'empty file', bytes: Buffer.alloc(0) }, { name: 'one newline', bytes: Buffer.from('\n') }];
  for (let i = 0; cases.length < 320; i++) {
    const count = Math.floor(random() * 6);
    const lines = Array.from({ length: count }, () => line(pick(sizes)));
    const [name, ending] = endings[i % endings.length]!;
    const last = line(pick(sizes));
    cases.push({ name: `${count} lines, ${name}`, bytes: Buffer.concat([...lines, ending(last)]) });
  }
  return cases;
}

describe('LineLog.append', () => {
  it('keeps exactly what the scan from the end keeps, over 320 generated log ends, then adds the new line', async () => {
    const added = { at: '2026-12-01T00:30:00.000Z', category: 'accepted' };
    let cut = 0;
    for (const [i, { name, bytes }] of corpus().entries()) {
      const path = join(tmp.dir, `log-${i}.jsonl`);
      await writeFile(path, bytes);
      await new LineLog(path, { fs: nodeDurableFs, seal: true }).append([added]);
      const kept = keptByScan(bytes);
      if (kept < bytes.length) cut++;
      expect({ name, after: (await readFile(path)).toString('latin1') }).toEqual({ name, after: Buffer.concat([bytes.subarray(0, kept), encodeSealedLine(added)]).toString('latin1') });
    }
    expect(cut).toBeGreaterThan(100); // the corpus exercises the cut, not only the whole-line case
  });

  it('reads only the last line of a long log that ends whole', async () => {
    const path = join(tmp.dir, 'long.jsonl');
    await writeFile(path, Buffer.concat(Array.from({ length: 2000 }, (_, i) => encodeSealedLine({ i }))));
    const reads: number[] = [];
    const counting = {
      ...nodeDurableFs,
      open: async (...args: Parameters<typeof nodeDurableFs.open>) => {
        const file = await nodeDurableFs.open(...args);
        return { ...file, stat: () => file.stat(), write: (b: Buffer) => file.write(b), sync: () => file.sync(), close: () => file.close(), truncate: (n: number) => file.truncate(n), read: (length: number, position: number) => (reads.push(length), file.read(length, position)) };
      },
    };
    await new LineLog(path, { fs: counting, seal: true }).append([{ i: 2000 }]);
    expect(reads.every((length) => length <= LAST_LINE_PROBE_BYTES)).toBe(true);
    const text = await readFile(path, 'utf8');
    expect(text.trimEnd().split('\n').map((l) => decodeSealedLine(Buffer.from(l))?.i)).toEqual(Array.from({ length: 2001 }, (_, i) => i));
  });
});
