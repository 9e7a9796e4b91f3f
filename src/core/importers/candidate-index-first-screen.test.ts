import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { KeyStore } from '../store/at-rest/key-store.js';
import { CANDIDATE_INDEX_VERSION, decodeCandidateIndexWithMeta, encodeCandidateIndex, entryOf, saveCandidateIndex, type IndexEntry, type IndexMeta } from './candidate-index.js';
import { IndexDamagedError, PREFIX_BYTES, readLayout, type ReadLayout } from './candidate-index-layout.js';
import { FIRST_SCREEN_ROWS, parseFirstScreen, readCandidateFirstScreen } from './candidate-index-first-screen.js';
import { orderAgentEntries } from '../host/agent-list-page.js';
import type { ImportedCandidate } from './types.js';

/**
 * The index's first screen (issue 15, sixteenth sitting): a new host's first `agents:list` page from
 * a few small reads. What it answers must be what the whole index's order answers; anything torn,
 * damaged or inconsistent in it is refused (null, or IndexDamagedError from the parse), so the host
 * reads the whole index instead.
 */
const META: IndexMeta = { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} };
const T0 = Date.UTC(2026, 10, 1);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-first-screen-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `n` entries over 9 directories, times repeating (ties across directories), a note on some, every 11th a skipped file. */
function entries(n: number): IndexEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const externalId = `e${String(i).padStart(6, '0')}`;
    const path = `/h/claude/d${i % 9}/${externalId}.jsonl`;
    const source = i % 4 === 0 ? ('codex' as const) : ('claude' as const);
    if (i % 11 === 5) return entryOf(path, source, 10 + i, 20 + i, null, 'no messages', [0, 0, 0, 0]);
    const candidate: ImportedCandidate = {
      source,
      externalId,
      path,
      title: `title ${i} ✓ "quoted"`,
      cwd: `/home/dev/project-${i % 9}`,
      branch: i % 2 ? 'main' : null,
      // (i * 37) % 97: times out of the entries' order, with ties.
      updatedAt: new Date(T0 + ((i * 37) % 97) * 60_000).toISOString(),
      messageCount: i % 50,
      messageCountExact: i % 3 !== 0,
      model: null,
      cliVersion: '2.1.39',
      fingerprint: `fp-${i}`,
      resumeCommand: `${source} --resume ${externalId}`,
      ...(i % 7 === 0 ? { note: `note ${i}` } : {}),
    };
    return entryOf(path, source, 1000 + i, 2000 + i, candidate, null, [1, 0, 0, 0]);
  });
}

/** What the host's order answers for the first page, from the whole index. */
function orderedFirstPage(buf: Buffer): { total: number; candidates: ImportedCandidate[] } {
  const decoded = decodeCandidateIndexWithMeta(buf)!;
  const sorted = orderAgentEntries(decoded.entries.filter((e) => e.skip === null), new Set());
  return { total: sorted.length, candidates: sorted.slice(0, FIRST_SCREEN_ROWS).map((e) => e.candidate()) };
}

async function written(buf: Buffer, name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, buf);
  return file;
}

/** The first screen's rows as written, to forge from. */
function sectionOf(layout: ReadLayout, buf: Buffer): { total: number; rows: Array<[number, Record<string, unknown>]> } {
  return JSON.parse(buf.toString('utf8', layout.firstAt)) as { total: number; rows: Array<[number, Record<string, unknown>]> };
}

/** A layout whose head agrees with `forged` (its length and CRC): a writer that lied consistently. */
function parseForged(layout: ReadLayout, forged: unknown): ReturnType<typeof parseFirstScreen> {
  const bytes = Buffer.from(typeof forged === 'string' ? forged : JSON.stringify(forged));
  return parseFirstScreen({ ...layout, head: { ...layout.head, first: { bytes: bytes.length, crc: crc32(bytes) } } }, bytes);
}

/** The file with its head text changed in place (same length), both prefix CRCs made right again. */
function withHead(buf: Buffer, change: (head: string) => string): Buffer {
  const layout = readLayout(buf, CANDIDATE_INDEX_VERSION)!;
  const headEnd = PREFIX_BYTES + buf.readUInt32LE(8);
  const head = change(buf.toString('utf8', PREFIX_BYTES, headEnd));
  expect(Buffer.byteLength(head)).toBe(headEnd - PREFIX_BYTES);
  const out = Buffer.from(buf);
  out.write(head, PREFIX_BYTES, 'utf8');
  const arraysAt = layout.columnsEnd + ((8 - (layout.columnsEnd % 8)) % 8);
  out.writeUInt32LE(crc32(out.subarray(PREFIX_BYTES)), 20);
  out.writeUInt32LE(crc32(out.subarray(arraysAt, layout.extrasAt), crc32(out.subarray(PREFIX_BYTES, headEnd))), 24);
  return out;
}

describe('the candidate index first screen', () => {
  it('answers the newest candidates in the host order (ties in index order) and the exact counts, from a few small reads', async () => {
    for (const n of [1_000, 30, 0]) {
      const buf = encodeCandidateIndex(entries(n), META);
      const screen = readCandidateFirstScreen(await written(buf, `index-${n}.idx`), CANDIDATE_INDEX_VERSION);
      const expected = orderedFirstPage(buf);
      expect(screen).not.toBeNull();
      expect(screen!.total).toBe(expected.total);
      expect(screen!.files).toBe(n);
      expect(screen!.candidates).toEqual(expected.candidates);
      expect(screen!.candidates.length).toBe(Math.min(FIRST_SCREEN_ROWS, expected.total));
    }
    // Ties are there to order: the first page crosses a run of equal times.
    const times = orderedFirstPage(encodeCandidateIndex(entries(1_000), META)).candidates.map((c) => c.updatedAt);
    expect(new Set(times).size).toBeLessThan(times.length);
  });

  it('refuses every truncation, a flipped byte of its section, a head that lies about its length, and an older version', async () => {
    const buf = encodeCandidateIndex(entries(400), META);
    const layout = readLayout(buf, CANDIDATE_INDEX_VERSION)!;
    const headEnd = PREFIX_BYTES + buf.readUInt32LE(8);
    const cuts = [0, 4, PREFIX_BYTES - 1, PREFIX_BYTES, PREFIX_BYTES + 10, headEnd - 1, headEnd, layout.extrasAt - 1, layout.firstAt, layout.firstAt + 1, buf.length - 1];
    for (const cut of cuts) expect(readCandidateFirstScreen(await written(buf.subarray(0, cut), 'cut.idx'), CANDIDATE_INDEX_VERSION), `cut at ${cut}`).toBeNull();
    for (const at of [layout.firstAt, layout.firstAt + 100, buf.length - 2]) {
      const flipped = Buffer.from(buf);
      flipped[at]! ^= 0x04;
      expect(readCandidateFirstScreen(await written(flipped, 'flip.idx'), CANDIDATE_INDEX_VERSION), `flip at ${at}`).toBeNull();
    }
    // A byte appended: the head's length no longer ends at the file's end.
    expect(readCandidateFirstScreen(await written(Buffer.concat([buf, Buffer.from(' ')]), 'longer.idx'), CANDIDATE_INDEX_VERSION)).toBeNull();
    // The head's section length off by one, its CRCs made right: refused by size.
    const bytes = layout.head.first.bytes;
    const other = String(bytes).slice(0, -1) + String((bytes + 1) % 10); // another length, as many digits
    const lying = withHead(buf, (h) => h.replace(`"first":{"bytes":${bytes},`, `"first":{"bytes":${other},`));
    expect(readCandidateFirstScreen(await written(lying, 'lying-head.idx'), CANDIDATE_INDEX_VERSION)).toBeNull();
    // An index of another version (same bytes otherwise) is not read: the host reads the whole file, which the scan rebuilds.
    const older = withHead(buf, (h) => h.replace(`"version":${CANDIDATE_INDEX_VERSION}`, `"version":${CANDIDATE_INDEX_VERSION - 100}`));
    expect(readCandidateFirstScreen(await written(older, 'older.idx'), CANDIDATE_INDEX_VERSION)).toBeNull();
    // The untouched file still reads (the cases above are what was refused).
    expect(readCandidateFirstScreen(await written(buf, 'whole.idx'), CANDIDATE_INDEX_VERSION)?.total).toBe(orderedFirstPage(buf).total);
  });

  it('a section that disagrees with the head or the arrays is damage, even with a CRC that matches', () => {
    const buf = encodeCandidateIndex(entries(600), META);
    const layout = readLayout(buf, CANDIDATE_INDEX_VERSION)!;
    const section = sectionOf(layout, buf);
    expect(parseForged(layout, section).candidates).toHaveLength(FIRST_SCREEN_ROWS);
    const rows = () => section.rows.map(([i, c]): [number, Record<string, unknown>] => [i, { ...c }]);
    const expectDamage = (forged: unknown, what: RegExp) => expect(() => parseForged(layout, forged)).toThrow(what);
    expectDamage({ ...section, total: section.total + 1 }, /counts/);
    expectDamage({ ...section, total: section.total - 1 }, /counts/);
    expectDamage({ ...section, rows: rows().slice(1) }, /number of rows/);
    expectDamage({ ...section, rows: [...rows(), rows()[0]] }, /number of rows/);
    const swapped = rows();
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    expectDamage({ ...section, rows: swapped }, /out of order|newer/);
    // The newest row left out, the next one in its place at the end: a newer candidate is missing.
    const seen = new Set(section.rows.map(([i]) => i));
    const next = Array.from(layout.at.subarray(0, layout.head.listing.candidates), (at, i) => [at, i] as const)
      .filter(([, i]) => !seen.has(i))
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])[0]!;
    const nextCandidate = decodeCandidateIndexWithMeta(buf)!.entries[next[1]]!.candidate();
    expectDamage({ ...section, rows: [...rows().slice(1), [next[1], nextCandidate]] }, /newer/);
    const moved = rows();
    moved[10]![1].updatedAt = new Date(Date.parse(moved[10]![1].updatedAt as string) + 1).toISOString();
    expectDamage({ ...section, rows: moved }, /disagrees/);
    const retooled = rows();
    retooled[0]![1].source = retooled[0]![1].source === 'claude' ? 'codex' : 'claude';
    expectDamage({ ...section, rows: retooled }, /disagrees/);
    const renumbered = rows();
    renumbered[0]![0] = layout.head.listing.candidates; // a skipped file's number, past the candidates
    expectDamage({ ...section, rows: renumbered }, /names no candidate/);
    const twice = rows();
    twice[1] = [twice[0]![0], twice[0]![1]];
    expectDamage({ ...section, rows: twice }, /names no candidate/);
    const bare = rows();
    delete bare[7]![1].fingerprint;
    expectDamage({ ...section, rows: bare }, /not a candidate/);
    expectDamage('{"total":', /not JSON/);
    expectDamage('null', /counts/);
    // A CRC that does not match the head's: torn.
    const bytes = Buffer.from(JSON.stringify(section));
    expect(() => parseFirstScreen({ ...layout, head: { ...layout.head, first: { bytes: bytes.length, crc: crc32(bytes) ^ 1 } } }, bytes)).toThrow(IndexDamagedError);
  });

  it('in an encrypted store: the section is sealed with the rest, read from its pieces, and a damaged piece is refused', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'baton-first-screen-sealed-'));
    const secrets = new Map<string, Buffer>();
    const keyStore: KeyStore = { label: 'memory', read: async (a) => secrets.get(a), write: async (a, s) => void secrets.set(a, Buffer.from(s)), remove: async (a) => secrets.delete(a) };
    const store = await openStore(dataDir, { keyStore });
    try {
      expect(store.atRest.state).toBe('on');
      const list = entries(3_000);
      const file = join(dataDir, 'importers-candidates.idx');
      await saveCandidateIndex(file, list, META);
      const onDisk = await readFile(file);
      const plain = encodeCandidateIndex(list, META);
      // Not the clear layout, and no title of the first screen (the file's last bytes) in the clear.
      expect(onDisk.subarray(0, 8).toString('latin1')).not.toBe('BTNCIDX4');
      const screen = readCandidateFirstScreen(file, CANDIDATE_INDEX_VERSION);
      expect(screen).toEqual({ ...orderedFirstPage(plain), files: 3_000 });
      expect(onDisk.includes(Buffer.from(screen!.candidates[0]!.title))).toBe(false);
      const damaged = Buffer.from(onDisk);
      damaged[damaged.length - 20]! ^= 0x01;
      await writeFile(file, damaged);
      expect(readCandidateFirstScreen(file, CANDIDATE_INDEX_VERSION)).toBeNull();
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
