import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamLog } from './log-stream.js';

const inMemory = (bytes: Buffer) => ({ read: async (length: number, position: number) => Buffer.from(bytes.subarray(position, position + length)) });

async function collect(bytes: Buffer, end: number, chunk: number) {
  const lines: Array<[string, number]> = [];
  const result = await streamLog(inMemory(bytes), end, (line, start) => void lines.push([line.toString('latin1'), start]), chunk);
  return { lines, result };
}

/** What a whole-buffer split gives: every complete line before `end` with its start. */
function expected(bytes: Buffer, end: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let at = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1 && nl < end; nl = bytes.indexOf(0x0a, at)) {
    out.push([bytes.toString('latin1', at, nl), at]);
    at = nl + 1;
  }
  return out;
}

describe('streaming a log in chunks', () => {
  it('gives the same lines, starts and sha256 as reading it whole, for any chunk size and cut (500 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'é'), maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 64 }),
        fc.nat(),
        async (parts, chunk, cutSeed) => {
          const bytes = Buffer.from(parts.join(''), 'utf8');
          const end = bytes.length === 0 ? 0 : cutSeed % (bytes.length + 1);
          const { lines, result } = await collect(bytes, end, chunk);
          expect(lines).toEqual(expected(bytes, end));
          expect(result).toEqual({ bytes: end, sha256: createHash('sha256').update(bytes.subarray(0, end)).digest('hex') });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('joins a line longer than many chunks once, and leaves out a last line with no newline', async () => {
    const long = 'x'.repeat(10_000);
    const bytes = Buffer.from(`a\n${long}\nb\ntorn`);
    const { lines } = await collect(bytes, bytes.length, 7);
    expect(lines).toEqual([
      ['a', 0],
      [long, 2],
      ['b', 10_003],
    ]);
  });

  it('waits for a callback that returns a promise before the next line', async () => {
    const order: string[] = [];
    await streamLog(inMemory(Buffer.from('1\n2\n3\n')), 6, async (line) => {
      await new Promise((r) => setTimeout(r, 2));
      order.push(line.toString());
    }, 3);
    expect(order).toEqual(['1', '2', '3']);
  });

  it('reports the bytes it hashed when the file is shorter than asked', async () => {
    const bytes = Buffer.from('one\ntwo\n');
    const { lines, result } = await collect(bytes, 100, 4);
    expect(lines.map((l) => l[0])).toEqual(['one', 'two']);
    expect(result.bytes).toBe(8);
  });
});
