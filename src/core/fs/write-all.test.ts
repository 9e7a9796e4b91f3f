import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeAllParts, type VectorWriter } from './write-all.js';

/**
 * writeAllParts: every byte of the parts, in order, however little each writev call writes, at a
 * position or at the file's offset.
 */
describe('writeAllParts', () => {
  it('writes every part in order when each call writes only some bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), fc.integer({ min: 1, max: 17 }), async (parts, most) => {
        const out: number[] = [];
        let calls = 0;
        const handle: VectorWriter = {
          writev: (async (buffers: NodeJS.ArrayBufferView[]) => {
            calls += 1;
            const bytes = Buffer.concat(buffers.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))).subarray(0, most);
            out.push(...bytes);
            return { bytesWritten: bytes.length, buffers };
          }) as VectorWriter['writev'],
        };
        await writeAllParts(handle, parts);
        const all = Buffer.concat(parts);
        expect(Buffer.from(out).equals(all)).toBe(true);
        expect(calls).toBe(Math.ceil(all.length / most));
      }),
      { numRuns: 200 },
    );
  });

  it('fails with EIO, rather than looping, when a call writes nothing with bytes left', async () => {
    let calls = 0;
    const stuck: VectorWriter = {
      writev: (async (buffers: NodeJS.ArrayBufferView[]) => {
        calls += 1;
        return { bytesWritten: 0, buffers };
      }) as VectorWriter['writev'],
    };
    await expect(writeAllParts(stuck, [Buffer.from('abc')])).rejects.toMatchObject({ code: 'EIO' });
    expect(calls).toBe(1);
    await writeAllParts(stuck, [Buffer.alloc(0)]); // nothing to write: no call
    expect(calls).toBe(1);
  });

  it('writes at a position without moving the file offset, and at the offset without one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-write-all-'));
    try {
      const file = join(dir, 'f');
      const handle = await open(file, 'w+');
      await writeAllParts(handle, [Buffer.from('abc'), Buffer.alloc(0), Buffer.from('def')]);
      await writeAllParts(handle, [Buffer.from('XY')], 1);
      await writeAllParts(handle, [Buffer.from('gh')]);
      await handle.close();
      expect(await readFile(file, 'latin1')).toBe('aXYdefgh');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
