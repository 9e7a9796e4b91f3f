import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IndexRow } from '../../shared/session.js';
import { encodeCandidateIndex, entryOf, type IndexEntry } from './candidate-index.js';
import { countItems, groupItems, itemOfRow, limitGroups, type ListFilter, type ListGroup, type ListItem } from './candidate-list.js';
import { groupsWithIndex, listingOfIndex, prepareListing, readIndexListing } from './index-listing.js';
import type { LayoutSource } from './candidate-index-layout.js';
import { writeListJson } from './list-json.js';
import type { ImportedCandidate } from './types.js';
import { seededRandom as rng } from '../test-support/seeded-random.js';


const CWDS = ['/home/dev/a', '/home/dev/a/', '/home/dev/a/sub', '/home/dev/b', '/srv/x y', '/srv/ünï', '/', ''];
const TIMES = [Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 2, 3), Date.UTC(2026, 10, 5), Number.NaN];

function iso(random: () => number): string {
  const t = TIMES[Math.floor(random() * TIMES.length)]!;
  return Number.isNaN(t) ? 'not a date' : new Date(t + Math.floor(random() * 4) * 1000).toISOString();
}

function candidateOf(random: () => number, i: number): ImportedCandidate {
  const source = random() < 0.5 ? 'claude' : 'codex';
  const externalId = `${Math.floor(random() * 3)}${String(i).padStart(6, '0')}`;
  const c: ImportedCandidate = {
    source,
    externalId,
    path: `/h/${source}/d${i % 3}/${externalId}.jsonl`,
    title: random() < 0.1 ? '' : `title ${i} "q" ✓\n\u001b[31m`,
    cwd: random() < 0.05 ? null : CWDS[Math.floor(random() * CWDS.length)]!,
    branch: random() < 0.5 ? 'main' : null,
    updatedAt: iso(random),
    messageCount: Math.floor(random() * 50),
    messageCountExact: random() < 0.9,
    model: null,
    cliVersion: null,
    fingerprint: `fp-${i}`,
    resumeCommand: `${source} --resume ${externalId}`,
  };
  if (random() < 0.05) c.note = `note ${i}`;
  return c;
}

function batonRow(random: () => number, i: number): IndexRow {
  return {
    id: `s-${String(i).padStart(3, '0')}`,
    cwd: CWDS[Math.floor(random() * CWDS.length)]!,
    gitRoot: null,
    branch: null,
    title: `baton ${i}`,
    updatedAt: iso(random),
    messageCount: i,
    source: 'baton',
    holder: { who: 'desktop', epoch: 1 },
    parentId: null,
    archived: random() < 0.2,
  };
}

function filterOf(random: () => number): ListFilter {
  const f: ListFilter = {};
  const r = random();
  if (r < 0.3) f.cwd = ['/home/dev/a', '/home/dev', '/srv', '/nowhere', '/'][Math.floor(random() * 5)]!;
  const s = random();
  if (s < 0.4) f.source = ['claude', 'codex', 'baton'][Math.floor(s * 7.5)]!;
  return f;
}

/** The file read by positional reads, as readIndexListing reads an unencrypted index. */
function lazy(buf: Buffer): LayoutSource & { bytesRead: () => number } {
  let bytesRead = 0;
  return { size: buf.length, whole: null, read: (at, length) => ((bytesRead += Math.min(length, buf.length - at)), Buffer.from(buf.subarray(at, at + length))), bytesRead: () => bytesRead };
}

/** The layout's fixed-size arrays (sort times, extras offsets, row starts, row ends, tools): each read into its own memory. */
const FIXED_ARRAYS = 5;

/** The same file read through `readInto` (positional reads into the block's one buffer), as the CLI's file source reads it. */
function lazyInto(buf: Buffer): LayoutSource & { reads: () => number } {
  let reads = 0;
  const read = (at: number, length: number) => Buffer.from(buf.subarray(at, at + length));
  return { size: buf.length, whole: null, read, readInto: (at, target) => ((reads += 1), buf.copy(target, 0, at, Math.min(buf.length, at + target.length))), reads: () => reads };
}

async function render(groups: readonly ListGroup[]): Promise<string> {
  const chunks: Buffer[] = [];
  await writeListJson({ write: (c) => (chunks.push(Buffer.from(c)), true), once: () => undefined }, { version: 1 }, groups, { total: countItems(groups) });
  return Buffer.concat(chunks).toString('utf8');
}

describe('a listing read from the candidate index equals groupItems over the decoded candidates', () => {
  it('over 400 generated indexes with Baton rows, tool and directory filters and limits, byte for byte', async () => {
    let fastGroups = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const random = rng(seed);
      const n = Math.floor(random() * 60);
      const entries: IndexEntry[] = [];
      for (let i = 0; i < n; i++) {
        if (random() < 0.1) entries.push(entryOf(`/h/skip/${i}.jsonl`, 'codex', i, i, null, 'no messages', [0, 0, 0, 0]));
        else {
          const c = candidateOf(random, i);
          entries.push(entryOf(c.path, c.source, i, i, c, null, [1, 0, 0, 0]));
        }
      }
      const rows: ListItem[] = Array.from({ length: Math.floor(random() * 6) }, (_, i) => itemOfRow(batonRow(random, i)));
      const filter = filterOf(random);
      const buf = encodeCandidateIndex(entries);
      // Whole (an encrypted store's file, opened) or read lazily (positional reads), alternately.
      const listing = listingOfIndex(seed % 2 === 0 ? buf : lazy(buf), 0, 0)!;
      expect(listing, `seed ${seed}`).not.toBeNull();
      const expected = groupItems([...rows, ...entries.filter((e) => e.skip === null)], filter);
      const actual = groupsWithIndex(listing, rows, filter);
      fastGroups += actual.filter((g) => g.rendered).length;
      expect(countItems(actual), `seed ${seed}`).toBe(countItems(expected));
      expect(await render(actual), `seed ${seed}`).toBe(await render(expected));
      const limit = Math.floor(random() * 12);
      expect(await render(limitGroups(actual, limit)), `seed ${seed} limit ${limit}`).toBe(await render(limitGroups(expected, limit)));
      // Rows by range, in display order, each with the row JSON of its candidate.
      const all = groupItems(entries.filter((e) => e.skip === null)).flatMap((g) => g.items);
      const from = Math.floor(random() * (all.length + 1));
      expect(listing.readRows(from, from + 5).map((r) => [r.text(), r.cwd, r.at, r.id, r.source]), `seed ${seed}`).toEqual(all.slice(from, from + 5).map((r) => [r.text(), r.cwd, r.at, r.id, r.source]));
      expect(listing.head.notes).toEqual(entries.flatMap((e) => (e.skip === null && e.note ? [`${e.path}: ${e.note}`] : [])).sort());
    }
    // The pre-rendered path was taken, not only the row-by-row one.
    expect(fastGroups).toBeGreaterThan(400);
  });

  it('refuses every truncation and every flipped byte of an index (it is rebuilt, never served)', () => {
    const random = rng(7);
    const entries = Array.from({ length: 30 }, (_, i) => entryOf(`/h/${i}.jsonl`, 'claude', i, i, candidateOf(random, i), null, [0, 0, 0, 0]));
    const buf = encodeCandidateIndex(entries, { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} });
    expect(listingOfIndex(buf, 0, 0)).not.toBeNull();
    for (let cut = 0; cut < buf.length; cut += 13) expect(listingOfIndex(buf.subarray(0, cut), 0, 0), `cut ${cut}`).toBeNull();
    for (let at = 0; at < buf.length; at += 7) {
      const damaged = Buffer.from(buf);
      damaged[at] = damaged[at]! ^ 0x20;
      expect(listingOfIndex(damaged, 0, 0), `byte ${at}`).toBeNull();
    }
  });

  it('read lazily: a flipped byte is refused or found before printing, unless it is in bytes a listing never prints; a limited listing reads a fraction of the file', async () => {
    const random = rng(11);
    const entries = Array.from({ length: 200 }, (_, i) => {
      const c = candidateOf(random, i);
      return entryOf(c.path, c.source, i, i, c, null, [0, 0, 0, 0]);
    });
    const buf = encodeCandidateIndex(entries, { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} });
    const clean = await render(listingOfIndex(buf, 0, 0)!.groups);
    let refused = 0;
    for (let at = 0; at < buf.length; at += 5) {
      const damaged = Buffer.from(buf);
      damaged[at] = damaged[at]! ^ 0x20;
      const listing = listingOfIndex(lazy(damaged), 0, 0);
      if (listing === null || !prepareListing(listing.groups)) {
        refused += 1;
        continue;
      }
      expect(await render(listing.groups), `byte ${at}`).toBe(clean);
    }
    expect(refused).toBeGreaterThan(buf.length / 5 / 3);
    const source = lazy(buf);
    const listing = listingOfIndex(source, 0, 0)!;
    const first = listing.groups.slice(0, 1);
    expect(prepareListing(first)).toBe(true);
    expect(source.bytesRead()).toBeLessThan(buf.length / 2);
  });

  it('read into one buffer (readInto): every flipped byte and truncation gets the same verdict and output as reads that copy; whole listings in a few reads; real files too', async () => {
    let compared = 0;
    const dir = mkdtempSync(join(tmpdir(), 'baton-index-into-'));
    try {
      for (let seed = 1; seed <= 12; seed++) {
        const random = rng(1000 + seed);
        const entries = Array.from({ length: 40 + Math.floor(random() * 300) }, (_, i) => {
          const c = candidateOf(random, i);
          return entryOf(c.path, c.source, i, i, c, null, [0, 0, 0, 0]);
        });
        const buf = encodeCandidateIndex(entries, { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} });
        const clean = await render(listingOfIndex(buf, 0, 0)!.groups);
        const verdict = async (source: LayoutSource) => {
          const listing = listingOfIndex(source, 0, 0);
          if (listing === null || !prepareListing(listing.groups)) return null;
          return render(listing.groups);
        };
        const into = lazyInto(buf);
        expect(await verdict(into)).toBe(clean);
        // Doubling reads: a whole listing of n groups costs about log2(n) + 1 reads, not one per
        // group, after one read into each of the five fixed arrays.
        expect(into.reads()).toBeLessThanOrEqual(FIXED_ARRAYS + Math.ceil(Math.log2(listingOfIndex(buf, 0, 0)!.groups.length + 1)) + 2);
        const stride = Math.max(7, Math.floor(buf.length / 200)) | 1; // ~200 flips a seed, over every region of the file
        for (let at = seed % stride; at < buf.length; at += stride) {
          const damaged = Buffer.from(buf);
          damaged[at] = damaged[at]! ^ (1 << (at % 8));
          const copied = await verdict(lazy(damaged));
          expect(await verdict(lazyInto(damaged)), `seed ${seed} byte ${at}`).toBe(copied);
          if (copied !== null) expect(copied).toBe(clean);
          compared += 1;
        }
        for (let cut = 0; cut < buf.length; cut += Math.max(1, Math.floor(buf.length / 40))) {
          const short = buf.subarray(0, cut);
          expect(await verdict(lazyInto(short)), `seed ${seed} cut ${cut}`).toBe(await verdict(lazy(short)));
          compared += 1;
        }
        // The CLI's own source: the file on disk, whole, then cut short.
        const file = join(dir, `idx-${seed}`);
        writeFileSync(file, buf);
        const fromFile = readIndexListing(file)!;
        expect(prepareListing(fromFile.groups)).toBe(true);
        expect(await render(fromFile.groups)).toBe(clean);
        fromFile.close();
        writeFileSync(file, buf.subarray(0, buf.length - 3));
        const cut = readIndexListing(file);
        expect(cut === null || !prepareListing(cut.groups)).toBe(true);
        cut?.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(compared).toBeGreaterThan(2000);
  }, 120_000);

  it('refuses an index of the previous format (BTNCIDX1): the scan rebuilds it', () => {
    const old = Buffer.alloc(64);
    old.write('BTNCIDX1', 0, 'latin1');
    expect(listingOfIndex(old, 0, 0)).toBeNull();
  });
});
