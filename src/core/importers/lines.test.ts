import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { READ_CHUNK_BYTES } from './limits.js';
import { forEachLine, lineChunks, splitLines, type LogLine } from './lines.js';
import { nodeImportReader } from './reader.js';

describe('splitLines', () => {
  it.each([
    ['whole buffer at EOF', '{"a":1}\n{"b":2}\n', false, true, ['{"a":1}', '{"b":2}'], 16],
    ['torn last line at EOF is a broken line', '{"a":1}\n{"b"', false, true, ['{"a":1}', '{"b"'], 12],
    ['cut start drops the partial first line', 'a":1}\n{"b":2}\n', true, true, ['{"b":2}'], 14],
    ['not at EOF leaves the unterminated rest', '{"a":1}\n{"b":', false, false, ['{"a":1}'], 8],
    ['blank lines and CRLF are ignored', '{"a":1}\r\n\n\n{"b":2}\n', false, true, ['{"a":1}', '{"b":2}'], 19],
  ])('%s', (_name, text, cutStart, atEof, expected, restAt) => {
    const out = splitLines(Buffer.from(text), 0, cutStart, atEof);
    expect(out.lines.map((l) => l.text)).toEqual(expected);
    expect(out.restAt).toBe(restAt);
  });

  it('marks only unparseable lines broken, with their offsets', () => {
    const { lines } = splitLines(Buffer.from('{"a":1}\nnope\n{"c"'), 100, false, true);
    expect(lines.map((l) => [l.start, l.end, l.terminated, l.broken])).toEqual([
      [100, 108, true, false],
      [108, 113, true, true],
      [113, 117, false, true],
    ]);
  });

  it('gives byte offsets and UTF-8 text when a line holds multi-byte characters', () => {
    const { lines, restAt } = splitLines(Buffer.from('{"t":"é"}\n{"t":"a"} \n'), 10, false, true);
    expect(lines.map((l) => [l.start, l.end, l.text, l.value])).toEqual([
      [10, 21, '{"t":"é"}', { t: 'é' }],
      [21, 32, '{"t":"a"}', { t: 'a' }],
    ]);
    expect(restAt).toBe(32);
  });

  it('cuts ASCII and non-ASCII buffers alike: the same lines as decoding each line (property)', () => {
    const piece = fc.oneof(fc.json(), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('\n', '\r\n', ' ', '\t'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.nat(40), fc.boolean(), fc.boolean(), (pieces, base, cutStart, atEof) => {
        const buf = Buffer.from(pieces.join(''));
        const expected: [number, number, string, boolean][] = [];
        let pos = cutStart ? buf.indexOf(0x0a) + 1 : 0;
        let restAt = buf.length;
        if (cutStart && pos === 0) pos = buf.length;
        while (pos < buf.length) {
          const nl = buf.indexOf(0x0a, pos);
          if (nl < 0 && !atEof) {
            restAt = pos;
            break;
          }
          const to = nl < 0 ? buf.length : nl;
          const text = buf.toString('utf8', pos, to).trimEnd();
          if (text.length > 0) expected.push([base + pos, base + (nl < 0 ? buf.length : nl + 1), text, nl >= 0]);
          pos = to + 1;
        }
        const out = splitLines(buf, base, cutStart, atEof);
        expect(out.lines.map((l) => [l.start, l.end, l.text, l.terminated])).toEqual(expected);
        expect(out.restAt).toBe(base + restAt);
      }),
      { numRuns: 500 },
    );
  });
});

describe('forEachLine', () => {
  it('streams lines longer than one read chunk intact', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-lines-'));
    try {
      const big = JSON.stringify({ big: 'x'.repeat(READ_CHUNK_BYTES * 2 + 17) });
      const path = join(dir, 'big.jsonl');
      await writeFile(path, `{"a":1}\n${big}\n{"z":true}`);
      const handle = await nodeImportReader.open(path);
      const got: LogLine[] = [];
      await forEachLine(handle, 0, Buffer.byteLength(`{"a":1}\n${big}\n{"z":true}`), (l) => got.push(l));
      await handle.close();
      expect(got.map((l) => l.text.length)).toEqual([7, big.length, 10]);
      expect(got.every((l) => !l.broken)).toBe(true);
      expect(got[2]!.terminated).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('yields the same lines as splitLines for any content (property)', async () => {
    const line = fc.oneof(fc.json(), fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).filter((s) => !s.includes('\n')));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), async (lines, finalNewline) => {
        const text = lines.join('\n') + (finalNewline && lines.length ? '\n' : '');
        const buf = Buffer.from(text);
        const handle = { read: async (pos: number, len: number) => buf.subarray(pos, pos + len), close: async () => undefined };
        const streamed: LogLine[] = [];
        await forEachLine(handle, 0, buf.length, (l) => streamed.push(l));
        const split = splitLines(buf, 0, false, true).lines;
        expect(streamed.map((l) => [l.start, l.end, l.text, l.broken])).toEqual(split.map((l) => [l.start, l.end, l.text, l.broken]));
      }),
      { numRuns: 300 },
    );
  });
});

describe('lineChunks across reads that stop anywhere', () => {
  /** A handle over `bytes` whose reads stop short at the given lengths, so chunks end anywhere (mid-line, mid-character). */
  const shortReads = (bytes: Buffer, lengths: number[]) => {
    let n = 0;
    return {
      read: async (position: number, length: number) => bytes.subarray(position, position + Math.min(length, lengths[n++ % lengths.length]!)),
      close: async () => undefined,
    };
  };
  /** Every piece a line may hold: multi-byte characters, an emoji, bytes that are not UTF-8, a torn sequence, CR, blanks. */
  const pieces = ['{"a":1}', 'é', '中文', '😀', '\u2028', ' ', '\r', '"q"', Buffer.from([0xff]), Buffer.from([0xe4, 0xb8]), Buffer.from([0xf0, 0x9f]), 'x'.repeat(300)];

  it('hands over the same lines, text and offsets as each line decoded alone, over 400 generated files', async () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let file = 0; file < 400; file++) {
      const parts: Buffer[] = [];
      for (let line = next(40); line > 0; line--) {
        for (let p = next(8); p > 0; p--) {
          const piece = pieces[next(pieces.length)]!;
          parts.push(typeof piece === 'string' ? Buffer.from(piece) : piece);
        }
        if (next(10) > 0) parts.push(Buffer.from('\n'));
      }
      const bytes = Buffer.concat(parts);
      const expected = splitLines(bytes, 0, false, true).lines;
      const got: LogLine[] = [];
      const lengths = Array.from({ length: 1 + next(5) }, () => 1 + next(700));
      for await (const _ of lineChunks(shortReads(bytes, lengths), 0, bytes.length, (l) => got.push(l)));
      expect(got.map((l) => [l.start, l.end, l.terminated, l.text, l.broken]), `file ${file}, reads of ${lengths.join(', ')} bytes`).toEqual(expected.map((l) => [l.start, l.end, l.terminated, l.text, l.broken]));
      expect(got.map((l) => l.value)).toEqual(expected.map((l) => l.value));
    }
  });
});
