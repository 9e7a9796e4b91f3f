import { fstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { memoryKeyStore } from '../store/at-rest/test-support/memory-key-store.js';
import { FILE_MAGIC } from '../store/at-rest/at-rest-cipher.js';
import { NONCE_BYTES, TAG_BYTES } from '../store/at-rest/aead.js';
import { PIECE_PLAIN_BYTES, sealPieces } from '../store/at-rest/sealed-pieces.js';
import { STREAM_HEADER_BYTES, STREAM_MARK } from '../store/at-rest/pieces-header.js';
import { cipherOf } from '../store/at-rest/encrypting-fs.js';
import { storeFsFor } from '../store/at-rest/registry.js';
import { CANDIDATE_INDEX_VERSION, encodeCandidateIndex, entryOf, readCandidateIndex, saveCandidateIndex, type IndexEntry, type IndexMeta } from './candidate-index.js';
import { IndexDamagedError, readLayout } from './candidate-index-layout.js';
import { sealedSource } from './index-file-source.js';
import { countItems, type ListGroup } from './candidate-list.js';
import { listingOfIndex, prepareListing, readIndexListing } from './index-listing.js';
import { writeListJson } from './list-json.js';

/**
 * An encrypted store's candidate index (issue 17) is sealed in pieces: a listing read from it is
 * byte for byte the plain index's, and it opens only the pieces it reads. A damaged piece the
 * listing reads sends it to the scan (never printed); one it does not read (the columns) leaves
 * it whole, while a reader of the whole index refuses the file.
 */
const SEALED_PIECE = PIECE_PLAIN_BYTES + NONCE_BYTES + TAG_BYTES;
const META: IndexMeta = { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} };

let dataDir: string;
let store: Awaited<ReturnType<typeof openStore>>;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'baton-sealed-index-'));
  store = await openStore(dataDir, { keyStore: memoryKeyStore() });
  expect(store.atRest.state).toBe('on');
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function safeLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

function entries(n: number): IndexEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const externalId = `e${String(i).padStart(6, '0')}`;
    const path = `/h/claude/d${i % 7}/${externalId}.jsonl`;
    const candidate = {
      source: 'claude' as const,
      externalId,
      path,
      title: `secret title ${i} ✓ "quoted"`,
      cwd: `/home/dev/project-${i % 40}`,
      branch: 'main',
      updatedAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      messageCount: i % 50,
      messageCountExact: true,
      model: null,
      cliVersion: null,
      fingerprint: `fp-${i}`,
      resumeCommand: `claude --resume ${externalId}`,
    };
    return entryOf(path, 'claude', 1000 + i, 2000 + i, candidate, null, [1, 0, 0, 0]);
  });
}

async function render(groups: readonly ListGroup[]): Promise<string> {
  const chunks: Buffer[] = [];
  await writeListJson({ write: (c) => (chunks.push(Buffer.from(c)), true), once: () => undefined }, { version: 1 }, groups, { total: countItems(groups) });
  return Buffer.concat(chunks).toString('utf8');
}

/** The listing rendered from the sealed file, or null when it is refused (not read, or a group fails before printing). */
async function listed(file: string): Promise<string | null> {
  const listing = readIndexListing(file, true);
  if (!listing) return null;
  try {
    return prepareListing(listing.groups) ? await render(listing.groups) : null;
  } finally {
    listing.close();
  }
}

/** A whole piece of the plaintext inside [from, to), by index. */
function pieceWithin(from: number, to: number): number {
  const piece = Math.ceil(from / PIECE_PLAIN_BYTES);
  expect((piece + 1) * PIECE_PLAIN_BYTES).toBeLessThanOrEqual(to);
  return piece;
}

describe('an encrypted store\'s candidate index, sealed in pieces', () => {
  const all = entries(4000);
  const plain = encodeCandidateIndex(all, META);
  const layout = readLayout(plain, CANDIDATE_INDEX_VERSION)!;
  const file = () => join(dataDir, 'importers-candidates.idx');

  it('lists byte for byte what the plain index lists, and decodes whole to the same entries', async () => {
    await saveCandidateIndex(file(), all, META);
    const onDisk = await readFile(file());
    expect(onDisk.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)).toBe(true);
    expect(onDisk.includes(Buffer.from('secret title'))).toBe(false);
    expect(await listed(file())).toBe(await render(listingOfIndex(plain, 0, 0)!.groups));
    const whole = await readCandidateIndex(file());
    expect(whole?.meta).toEqual(META);
    expect(whole?.entries.map((e) => [e.path, e.candidate()?.title])).toEqual((await readCandidateIndexOfPlain()).map((e) => [e.path, e.candidate()?.title]));
  });

  it('is written in the streamed layout, each section made once (the prefix\'s piece sealed last); an index in the sized layout still reads', async () => {
    await saveCandidateIndex(file(), all, META);
    const onDisk = await readFile(file());
    expect(onDisk.includes(STREAM_MARK)).toBe(true);
    const clean = await listed(file());
    expect(clean).toBe(await render(listingOfIndex(plain, 0, 0)!.groups));
    // The layout written before (sized: its length in every piece's associated data).
    const cipher = cipherOf(storeFsFor(file()))!;
    await writeFile(file(), Buffer.concat([...sealPieces(cipher, file(), { length: plain.length, parts: [plain] })]));
    expect((await readFile(file())).includes(STREAM_MARK)).toBe(false);
    expect((await listed(file())) === clean, 'the listing, byte for byte').toBe(true);
    expect((await readCandidateIndex(file()))?.meta).toEqual(META);
  });

  it('opens only the pieces it reads: a damaged piece of the columns leaves the listing whole, and the whole index refused', async () => {
    await saveCandidateIndex(file(), all, META);
    const clean = await listed(file());
    const bytes = await readFile(file());
    const piece = pieceWithin(layout.columnsStart, layout.columnsEnd);
    bytes[STREAM_HEADER_BYTES + piece * SEALED_PIECE + 100]! ^= 1;
    await writeFile(file(), bytes);
    // Compared as a boolean: a failure would print two listings of 1.3 MB.
    expect((await listed(file())) === clean, 'the listing, byte for byte').toBe(true);
    expect(await readCandidateIndex(file())).toBeNull();
  });

  it('refuses a damaged or moved piece of the listing block before printing anything', async () => {
    const first = pieceWithin(layout.blockAt, plain.length);
    for (const damage of ['flipped', 'swapped', 'cut'] as const) {
      await saveCandidateIndex(file(), all, META);
      const bytes = await readFile(file());
      const at = STREAM_HEADER_BYTES + first * SEALED_PIECE;
      if (damage === 'flipped') bytes[at + 100]! ^= 1;
      if (damage === 'swapped') {
        const a = Buffer.from(bytes.subarray(at, at + SEALED_PIECE));
        bytes.copy(bytes, at, at + SEALED_PIECE, at + 2 * SEALED_PIECE);
        a.copy(bytes, at + SEALED_PIECE);
      }
      await writeFile(file(), damage === 'cut' ? bytes.subarray(0, bytes.length - SEALED_PIECE) : bytes);
      expect(await listed(file()), damage).toBeNull();
    }
  });

  it('hands a group crossing pieces over as the opened pieces themselves (no copy), and reads every row, those crossing a piece too, as the plain index', async () => {
    await saveCandidateIndex(file(), all, META);
    const fd = openSync(file(), 'r');
    const source = sealedSource(file(), fd, fstatSync(fd).size)!;
    // The memory of every opened piece the source hands out.
    const opened = new Set<ArrayBufferLike>();
    const sealed = listingOfIndex(
      {
        ...source,
        slices: (at, length) => {
          const views = source.slices!(at, length);
          for (const v of views) opened.add(v.buffer);
          return views;
        },
      },
      0,
      0,
    )!;
    const clear = listingOfIndex(plain, 0, 0)!;
    try {
      const big = sealed.groups.find((g) => g.rendered!().length > 1);
      expect(big, 'a group whose bytes cross a piece').toBeDefined();
      const parts = big!.rendered!();
      // Views of the opened pieces themselves (distinct ones), not of a copy of them.
      expect(new Set(parts.map((p) => p.buffer)).size).toBe(parts.length);
      expect(parts.every((p) => opened.has(p.buffer))).toBe(true);
      expect(parts.every((p) => p.length <= PIECE_PLAIN_BYTES)).toBe(true);
      const clearGroup = clear.groups.find((g) => g.cwd === big!.cwd)!;
      expect(Buffer.concat(parts).equals(Buffer.concat(clearGroup.rendered!()))).toBe(true);
      // Rows in a scattered order (later pieces first), each as the plain index has it.
      const n = clear.head.candidates;
      const order = Array.from({ length: n }, (_, i) => (i * 7919) % n);
      for (const r of order) {
        const [a] = sealed.readRows(r, r + 1);
        const [b] = clear.readRows(r, r + 1);
        expect(a!.text()).toBe(b!.text());
        if (a!.copyRow) {
          const target = Buffer.alloc(4096);
          expect(target.subarray(0, a!.copyRow(target, 0)).toString('utf8')).toBe(b!.text());
        }
      }
      let crossing = 0;
      for (let r = 0; r < n; r++) {
        const [from, to] = [layout.blockAt + layout.rowStart[r]!, layout.blockAt + layout.rowEnd[r]! - 1];
        if (Math.floor(from / PIECE_PLAIN_BYTES) !== Math.floor(to / PIECE_PLAIN_BYTES)) crossing++;
      }
      expect(crossing, 'rows that cross a piece boundary in this corpus').toBeGreaterThan(0);
    } finally {
      sealed.close();
    }
  });

  it('keeps refusing a listing block once damage was found (a later read of bytes already loaded is refused too, never handed out unchecked)', async () => {
    for (const sealedFile of [true, false]) {
      const target = sealedFile ? file() : join(dataDir, '..', `plain-damaged-${process.pid}.idx`);
      if (sealedFile) {
        await saveCandidateIndex(file(), all, META);
        const bytes = await readFile(file());
        bytes[STREAM_HEADER_BYTES + pieceWithin(layout.blockAt, plain.length) * SEALED_PIECE + 100]! ^= 1;
        await writeFile(target, bytes);
      } else {
        // A byte of the first group's last row flipped: its CRC fails once the group is loaded.
        const bytes = Buffer.from(plain);
        const first = layout.head.listing.groups[0]!;
        bytes[layout.blockAt + first[5] - 20]! ^= 1;
        await writeFile(target, bytes);
      }
      const listing = readIndexListing(target, sealedFile)!;
      try {
        const attempts = [() => listing.groups.map((g) => g.rendered!()), () => listing.groups[0]!.rendered!(), () => listing.readRows(0, 1)[0]!.text()];
        expect(attempts[0], sealedFile ? 'sealed' : 'plain').toThrow(IndexDamagedError);
        for (const again of attempts) expect(again).toThrow(IndexDamagedError);
      } finally {
        listing.close();
        if (!sealedFile) await rm(target, { force: true });
      }
    }
  });

  it('is read resident by a host: every field, row and candidate as the whole read, the extras and rows read back from its sealed private copy', async () => {
    await saveCandidateIndex(file(), all, META);
    const whole = (await readCandidateIndex(file()))!;
    const openCopies = () => (process.platform === 'linux' ? readdirSync('/proc/self/fd').filter((fd) => safeLink(`/proc/self/fd/${fd}`).includes('.resident')).length : 0);
    const before = openCopies();
    const resident = (await readCandidateIndex(file(), { resident: true }))!;
    // The extras and the listing block stay on disk: the private copy (sealed, unlinked) is held open.
    if (process.platform === 'linux') expect(openCopies()).toBe(before + 1);
    expect(resident.meta).toEqual(whole.meta);
    expect(resident.entries.map((e) => [e.path, e.skip, e.at, e.cwd, e.id])).toEqual(whole.entries.map((e) => [e.path, e.skip, e.at, e.cwd, e.id]));
    for (let i = resident.entries.length - 1; i >= 0; i -= 7) {
      const [a, b] = [whole.entries[i]!, resident.entries[i]!];
      if (a.skip !== null) continue;
      expect(b.rowText()).toBe(a.rowText());
      expect(b.candidate()).toEqual(a.candidate());
    }
    expect(encodeCandidateIndex(resident.entries, resident.meta).equals(plain)).toBe(true);
    // A damaged piece anywhere is refused at load (every piece is opened as the CRC streams past).
    const bytes = await readFile(file());
    bytes[STREAM_HEADER_BYTES + pieceWithin(layout.extrasAt, layout.blockAt) * SEALED_PIECE + 50]! ^= 1;
    await writeFile(file(), bytes);
    expect(await readCandidateIndex(file(), { resident: true })).toBeNull();
  });

  /** The entries the plain index decodes to, for comparison. */
  async function readCandidateIndexOfPlain(): Promise<IndexEntry[]> {
    const plainFile = join(dataDir, '..', `plain-${process.pid}.idx`);
    await writeFile(plainFile, plain);
    try {
      return (await readCandidateIndex(plainFile))!.entries;
    } finally {
      await rm(plainFile, { force: true });
    }
  }
});
