import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../test-support/seeded-random.js';
import { newDataKey } from './aead.js';
import { FILE_MAGIC } from './at-rest-cipher.js';
import { openListing, readSealedListing, sealListing } from './sealed-listing.js';
import { STREAM_HEADER_BYTES, STREAM_MARK } from './pieces-header.js';
import { PIECE_PLAIN_BYTES } from './sealed-pieces.js';
import { SEALED_PIECE } from './test-support/pieces-files.js';
import { writeListingFile } from '../../host/listing-file.js';

/** Seals `doc` into `path` as the host does (sealed in pieces as it is written, listing-file.ts), with small parts. */
async function writeSealedListing(path: string, key: ReturnType<typeof newDataKey>, doc: Buffer): Promise<void> {
  const file = await writeListingFile(path, async (sink) => void sink.write(doc), 4096, key);
  const parts: string[] = [];
  for (let k = 0; k < file.starts.length; k++) parts.push((await file.part(k))!);
  // The host's parts, read back through the pieces, are the document.
  expect(Buffer.from(parts.join(''), 'utf8').equals(doc)).toBe(true);
  await file.close();
}

/**
 * The sealed listing file (issue 17): over generated `baton list --json` documents, what the CLI
 * opens is byte for byte what the host sealed; a changed, truncated, extended, renamed or
 * foreign-key file is refused, never opened as other text.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-sealed-listing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PIECES = ['a', 'é', '✓', '😀', '"', '\\', '\\n', '\\u0000', ' ', 'title', '/home/dev/p', '中文'];

/** A listing-shaped document with titles of mixed scripts, escapes and astral characters, `rows` rows long. */
function generatedListing(random: () => number, rows: number): string {
  const groups: string[] = [];
  for (let r = 0; r < rows; r++) {
    let title = '';
    const n = 1 + Math.floor(random() * 40);
    for (let i = 0; i < n; i++) title += PIECES[Math.floor(random() * PIECES.length)];
    groups.push(`{"id":"cccccccc-0000-4000-8000-${String(r).padStart(12, '0')}","title":"${title}","messages":${Math.floor(random() * 1e6)}}`);
  }
  return `{"version":1,"command":"list","ok":true,"groups":[${groups.join(',')}],"total":${rows}}\n`;
}

describe('sealed listing file', () => {
  it('opens byte for byte as written over 300 generated listings, and refuses each one changed, cut, extended, renamed or under another key', async () => {
    const key = newDataKey();
    const other = newDataKey();
    let refused = 0;
    let expected = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed * 104_729);
      const doc = Buffer.from(generatedListing(random, Math.floor(random() * (seed % 10 === 0 ? 4_000 : 200))), 'utf8');
      const name = `listing-${seed.toString(16).padStart(32, '0')}.sealed`;
      const path = join(dir, name);
      await writeSealedListing(path, key, doc);
      const onDisk = await readFile(path);
      expect(onDisk.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)).toBe(true);
      expect(onDisk.includes(STREAM_MARK)).toBe(true);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      // No run of the document's text is on disk (a title of 12+ bytes would show).
      if (doc.length > 64) expect(onDisk.includes(doc.subarray(20, 52))).toBe(false);
      const opened = readSealedListing(path, key);
      expect(opened.ok && Buffer.concat(opened.plain).equals(doc), `seed ${seed}`).toBe(true);

      const variants: Array<[string, Buffer, string]> = [];
      const flipped = Buffer.from(onDisk);
      const at = Math.floor(random() * flipped.length);
      flipped[at] = flipped[at]! ^ (1 << Math.floor(random() * 8));
      variants.push([`bit flipped at ${at}`, flipped, name]);
      variants.push(['truncated', onDisk.subarray(0, Math.floor(random() * onDisk.length)), name]);
      variants.push(['tag cut', onDisk.subarray(0, onDisk.length - 1), name]);
      variants.push(['extended', Buffer.concat([onDisk, Buffer.from('x')]), name]);
      variants.push(['another listing\'s name', onDisk, `listing-${(seed + 1).toString(16).padStart(32, '0')}.sealed`]);
      variants.push(['another key, sealed whole', sealListing(other, name, doc), name]);
      const otherPath = join(dir, `other-${name}`);
      await writeSealedListing(otherPath, other, doc);
      variants.push(['another key', Buffer.concat([onDisk.subarray(0, STREAM_HEADER_BYTES), (await readFile(otherPath)).subarray(STREAM_HEADER_BYTES)]), name]);
      await rm(otherPath);
      // Cut after a whole piece (or to its header) with an empty last piece's bytes added back: the
      // piece count then matches a shorter document, which the last piece's mark refuses.
      const wholePieces = Math.floor((onDisk.length - STREAM_HEADER_BYTES) / SEALED_PIECE);
      if (wholePieces > 1) variants.push(['cut after a whole piece, 28 bytes added', Buffer.concat([onDisk.subarray(0, STREAM_HEADER_BYTES + SEALED_PIECE), Buffer.alloc(SEALED_PIECE - PIECE_PLAIN_BYTES)]), name]);
      variants.push(['cut to its header, 28 bytes added', Buffer.concat([onDisk.subarray(0, STREAM_HEADER_BYTES), Buffer.alloc(SEALED_PIECE - PIECE_PLAIN_BYTES)]), name]);
      variants.push(['the plain document', doc, name]);
      variants.push(['the store\'s whole-file seal of it', Buffer.concat([FILE_MAGIC, Buffer.from(key.keyId, 'latin1'), onDisk.subarray(FILE_MAGIC.length + 16)]), name.replace('.sealed', '.json')]);
      for (const [what, bytes, asName] of variants) {
        const result = openListing(key, asName, bytes);
        expect(result.ok, `seed ${seed}: ${what}`).toBe(false);
        if (!result.ok) expect(result.reason).toContain(asName);
        // And through the file, by the reader the CLI uses (it reads the pieces, not the whole).
        // (In a folder of its own, so the file has the very name the variant is read as.)
        const variantPath = join(dir, 'variants', asName);
        await mkdir(join(dir, 'variants'), { recursive: true });
        await writeFile(variantPath, bytes);
        const read = readSealedListing(variantPath, key);
        await rm(variantPath);
        expect(read.ok, `seed ${seed}: ${what}, read from a file`).toBe(false);
        refused += 1;
      }
      expected += variants.length;
      // Through the file too: a changed file on disk is refused by the reader the CLI uses.
      await writeFile(path, flipped);
      expect((readSealedListing(path, key)).ok).toBe(false);
      await rm(path);
    }
    expect(refused).toBe(expected);
    expect(expected).toBeGreaterThan(300 * 9);
  }, 120_000);

  it('opens a listing sealed whole (a host of the release before), and refuses it changed or renamed', async () => {
    const key = newDataKey();
    const doc = Buffer.from(generatedListing(seededRandom(7), 500), 'utf8');
    const name = `listing-${'7'.repeat(32)}.sealed`;
    const path = join(dir, name);
    const whole = sealListing(key, name, doc);
    await writeFile(path, whole);
    const opened = readSealedListing(path, key);
    expect(opened.ok && Buffer.concat(opened.plain).equals(doc)).toBe(true);
    const flipped = Buffer.from(whole);
    flipped[whole.length >> 1]! ^= 4;
    await writeFile(path, flipped);
    expect((readSealedListing(path, key)).ok).toBe(false);
    expect(openListing(key, `listing-${'8'.repeat(32)}.sealed`, whole).ok).toBe(false);
    await rm(path);
  });

  it('a missing file is refused with its path', async () => {
    const result = readSealedListing(join(dir, 'listing-none.sealed'), newDataKey());
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('listing-none.sealed') });
  });
});
