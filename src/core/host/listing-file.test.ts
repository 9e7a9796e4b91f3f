import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../shared/wire.js';
import { writeListJson, type JsonSink } from '../importers/list-json.js';
import type { ListGroup } from '../importers/candidate-list.js';
import { LISTING_PART_BYTES, LISTING_WRITE_BYTES, writeListingFile } from './listing-file.js';
import { seededRandom } from '../test-support/seeded-random.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-lf-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A listing of `n` rows whose titles mix quotes, backslashes, control characters, accents, CJK and emoji. */
function groupsOf(n: number, seed: number): ListGroup[] {
  const alphabet = ['a', '"', '\\', '\n', '\u0001', 'é', '中', '😀', ' ', 'z'];
  const items = Array.from({ length: n }, (_, i) => {
    let title = '';
    for (let k = 0; k < 40 + ((i * 7 + seed) % 90); k++) title += alphabet[(i * 31 + k * 17 + seed) % alphabet.length];
    const row = { id: `s-${seed}-${i}`, title };
    return { cwd: '/w', at: n - i, id: row.id, source: 'claude', text: () => JSON.stringify(row), row: () => row as never };
  });
  return [{ cwd: '/w', newestAt: n, items }];
}

const render = (groups: ListGroup[]) => (sink: JsonSink) => writeListJson(sink, { version: 1, command: 'list', ok: true }, groups, { total: 1 });

async function documentOf(groups: ListGroup[]): Promise<string> {
  const chunks: Buffer[] = [];
  await render(groups)({ write: (c) => chunks.push(c) > 0, once: () => undefined });
  return Buffer.concat(chunks).toString('utf8');
}

describe('writeListingFile', () => {
  it('writes the document and cuts it into parts that fit a frame, never inside a character, over 24 generated listings', async () => {
    for (let seed = 0; seed < 24; seed++) {
      const groups = groupsOf(100 + seed * 53, seed);
      const expected = await documentOf(groups);
      // Small parts (many cuts, often next to a multi-byte character) and the real size.
      const partBytes = seed % 2 === 0 ? 1021 + seed : LISTING_PART_BYTES;
      const file = await writeListingFile(join(dir, `l${seed}.json`), render(groups), partBytes);
      expect(await readFile(file.path, 'utf8')).toBe(expected);
      expect(file.bytes).toBe(Buffer.byteLength(expected));
      const parts: string[] = [];
      for (let k = 0; k < file.starts.length; k++) parts.push((await file.part(k))!);
      expect(parts.join('')).toBe(expected);
      for (const p of parts) {
        expect(p).not.toContain('\uFFFD'); // a cut inside a UTF-8 sequence decodes to a replacement character
        expect(Buffer.byteLength(p)).toBeLessThanOrEqual(partBytes);
        expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(MAX_FRAME_BYTES);
      }
      if (Buffer.byteLength(expected) > partBytes) expect(file.starts.length).toBeGreaterThan(1);
      expect(await file.part(file.starts.length)).toBeNull();
      await file.close();
    }
    // Only the renamed files: no temporary file left.
    expect((await readdir(dir)).every((f) => f.endsWith('.json'))).toBe(true);
  });

  it('copies what it is given: a writer reusing one buffer, chunks from 1 byte to several MB, honouring drain, gives the same bytes', async () => {
    const random = seededRandom(77);
    for (let trial = 0; trial < 12; trial++) {
      const sizes = Array.from({ length: 40 }, () => (random() < 0.1 ? LISTING_WRITE_BYTES + Math.floor(random() * 3 * LISTING_WRITE_BYTES) : 1 + Math.floor(random() * 70_000)));
      const expected: Buffer[] = [];
      let drains = 0;
      const file = await writeListingFile(join(dir, `r${trial}.json`), async (sink) => {
        expect(sink.copies).toBe(true);
        const reused = Buffer.alloc(4 * LISTING_WRITE_BYTES);
        for (const [k, size] of sizes.entries()) {
          // ASCII only: every byte starts a character, as writeListJson's chunks do.
          reused.fill(0x61 + ((k + trial) % 26), 0, size);
          reused[0] = 0x30 + (k % 10);
          expected.push(Buffer.from(reused.subarray(0, size)));
          if (!sink.write(reused.subarray(0, size))) {
            drains += 1;
            await new Promise<void>((done) => sink.once('drain', done));
          }
          // Overwritten at once: a sink that kept the buffer would write these bytes instead.
          reused.fill(0x21, 0, size);
        }
      });
      const want = Buffer.concat(expected);
      expect((await readFile(file.path)).equals(want)).toBe(true);
      expect(file.bytes).toBe(want.length);
      expect(drains).toBeGreaterThan(0);
      await file.close();
    }
  });

  it('is private to its owner, keeps answering parts after the file is removed, and none once closed', async () => {
    const groups = groupsOf(3000, 1);
    const file = await writeListingFile(join(dir, 'l.json'), render(groups));
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    expect(file.starts.length).toBeGreaterThan(1);
    const last = await file.part(file.starts.length - 1);
    await rm(file.path);
    expect(await file.part(file.starts.length - 1)).toBe(last);
    await file.close();
    expect(await file.part(0)).toBeNull();
  });

  it('leaves nothing behind when the render fails', async () => {
    await expect(writeListingFile(join(dir, 'l.json'), async (sink) => {
      sink.write(Buffer.from('{"groups":['));
      throw new Error('render failed');
    })).rejects.toThrow('render failed');
    expect(await readdir(dir)).toEqual([]);
    await expect(writeListingFile(join(dir, 'missing', 'l.json'), render(groupsOf(10, 0)))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('writeListingFile, sealed (an encrypted store\'s listing)', () => {
  it('writes ciphertext only, answers the same parts as the plain file, from a copy a change to the published file does not reach', async () => {
    const { newDataKey } = await import('../store/at-rest/aead.js');
    const { readSealedListing } = await import('../store/at-rest/sealed-listing.js');
    const groups = groupsOf(3_000, 5);
    const expected = await documentOf(groups);
    const key = newDataKey();
    const plain = await writeListingFile(join(dir, 'p.json'), render(groups), 20_000);
    const file = await writeListingFile(join(dir, 'l.sealed'), render(groups), 20_000, key);
    expect(file.starts).toEqual(plain.starts);
    const onDisk = await readFile(file.path);
    expect(onDisk.includes(Buffer.from(expected.slice(200, 260)))).toBe(false);
    const opened = await readSealedListing(file.path, key);
    expect(opened.ok && Buffer.concat(opened.plain).toString('utf8')).toBe(expected);
    // Changed in place (same inode) after it was published: the host's parts are still the document.
    await writeFile(file.path, Buffer.alloc(onDisk.length));
    const parts: string[] = [];
    for (let k = 0; k < file.starts.length; k++) parts.push((await file.part(k))!);
    expect(parts.join('')).toBe(expected);
    expect((await readdir(dir)).sort()).toEqual(['l.sealed', 'p.json']);
    await Promise.all([file.close(), plain.close()]);
  });
});
