import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeCandidateIndex, entryOf, readCandidateIndex, saveCandidateIndex, type IndexEntry } from './candidate-index.js';
import { RESIDENT_READ_WINDOW_BYTES, RESIDENT_READ_WINDOWS } from './index-file-source.js';
import { seededRandom } from '../test-support/seeded-random.js';
import type { ImportedCandidate } from './types.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-cidx-res-'));
  file = join(dir, 'importers-candidates.idx');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function candidate(i: number, salt: string): ImportedCandidate {
  const externalId = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return {
    source: i % 3 === 0 ? 'codex' : 'claude',
    externalId,
    path: `/h/.claude/projects/p${i % 9}/${externalId}.jsonl`,
    // Long, non-ASCII titles: the block spans many read windows.
    title: `${salt} títle ${i} ✓ "q" ${'x'.repeat(i % 400)}\n`,
    cwd: `/home/dev/p${i % 9}/`,
    branch: i % 2 ? 'main' : null,
    updatedAt: new Date(Date.UTC(2026, 10, 1) + (i % 97) * 60_000 + i).toISOString(),
    messageCount: i,
    messageCountExact: i % 4 !== 0,
    model: i % 5 ? 'model-x' : null,
    cliVersion: '2.1.39',
    fingerprint: `fp-${salt}-${i}`,
    resumeCommand: `claude --resume ${externalId}`,
  };
}

function entries(n: number, salt: string): IndexEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const c = candidate(i, salt);
    return i % 13 === 0 ? entryOf(c.path, c.source, i, i, null, 'no messages', [1, 0, 0, 0]) : entryOf(c.path, c.source, i * 7, i * 1.5, i % 17 === 0 ? { ...c, note: 'torn tail' } : c, null, [i % 3, 0, 1, 0]);
  });
}

const fields = (e: IndexEntry) => ({ path: e.path, source: e.source, size: e.size, mtimeMs: e.mtimeMs, skip: e.skip, at: e.at, cwd: e.cwd, id: e.id, note: e.note, totals: e.totals });

describe('a resident candidate index (the host keeps the extras and rows on disk)', () => {
  it('answers every field, row and candidate as the whole read does, in any order, and re-encodes to the same bytes', async () => {
    await saveCandidateIndex(file, entries(3000, 'a'));
    const bytes = await readFile(file);
    // More windows than are kept: scattered reads evict and reuse them.
    expect(bytes.length).toBeGreaterThan(1.5 * RESIDENT_READ_WINDOWS * RESIDENT_READ_WINDOW_BYTES);
    const whole = (await readCandidateIndex(file))!;
    const resident = (await readCandidateIndex(file, { resident: true }))!;
    expect(resident.meta).toEqual(whole.meta);
    expect(resident.entries.map(fields)).toEqual(whole.entries.map(fields));
    // Scattered reads (a UI page sorted by time) and in file order (a listing).
    const random = seededRandom(15);
    const order = resident.entries.map((_, i) => i).sort(() => random() - 0.5);
    for (const i of order) {
      const [a, b] = [whole.entries[i]!, resident.entries[i]!];
      if (a.skip !== null) continue;
      expect(b.rowText()).toBe(a.rowText());
      expect(b.candidate()).toEqual(a.candidate());
      // copyRow straight from a window, at an offset inside the target.
      const target = Buffer.alloc(a.rowText().length * 3 + 7);
      const end = (b as unknown as { copyRow(t: Buffer, at: number): number }).copyRow(target, 7);
      expect(target.toString('utf8', 7, end)).toBe(a.rowText());
    }
    expect(encodeCandidateIndex(resident.entries, resident.meta).equals(bytes)).toBe(true);
  });

  it('keeps reading its own bytes after a newer index is renamed over the file, or the file is rewritten in place, and leaves no copy behind', async () => {
    await saveCandidateIndex(file, entries(400, 'old'));
    const whole = (await readCandidateIndex(file))!;
    const resident = (await readCandidateIndex(file, { resident: true }))!;
    expect(await readdir(dir)).toEqual(['importers-candidates.idx']);
    await saveCandidateIndex(file, entries(400, 'new'));
    // Damage written into the same inode: a resident reader of that inode would print it.
    const bytes = await readFile(file);
    await writeFile(file, bytes.fill(0x21, Math.floor(bytes.length / 3)));
    for (let i = resident.entries.length - 1; i >= 0; i--) {
      if (resident.entries[i]!.skip !== null) continue;
      expect(resident.entries[i]!.rowText()).toBe(whole.entries[i]!.rowText());
      expect(resident.entries[i]!.candidate().fingerprint).toMatch(/^fp-old-/);
    }
  });

  // The first screen (version 4) holds these 60 candidates whole: the file, and so its flips and cuts, nearly doubled.
  it('refuses every truncation, and every flipped byte is refused or changes nothing it answers', { timeout: 120_000 }, async () => {
    await saveCandidateIndex(file, entries(60, 'd'));
    const good = await readFile(file);
    const whole = (await readCandidateIndex(file))!;
    const answer = (r: NonNullable<Awaited<ReturnType<typeof readCandidateIndex>>>) => r.entries.map((e) => ({ ...fields(e), row: e.skip === null ? e.rowText() : null, c: e.skip === null ? e.candidate() : null }));
    const expected = answer(whole);
    let refused = 0;
    let checked = 0;
    for (let at = 0; at < good.length; at += 29) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x24;
      await writeFile(file, bad);
      const read = await readCandidateIndex(file, { resident: true });
      checked += 1;
      if (read === null) refused += 1;
      else expect(answer(read)).toEqual(expected);
    }
    expect(refused).toBeGreaterThan(checked * 0.95);
    for (let cut = 0; cut < good.length; cut += 53) {
      await writeFile(file, good.subarray(0, cut));
      expect(await readCandidateIndex(file, { resident: true })).toBeNull();
    }
  });
});
