import { promises as fsp } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { candidateRow } from '../../shared/agents.js';
import { candidateIndexFileFor, decodeCandidateIndexWithMeta, encodeCandidateIndex, entryOf, readCandidateIndex, saveCandidateIndex, type IndexEntry } from './candidate-index.js';
import { PREFIX_BYTES } from './candidate-index-layout.js';
import { groupItems } from './candidate-list.js';
import { forgetScanCacheMemo } from './scan-cache.js';
import { scanAgentSessions, scanCandidateIndex } from './scan.js';
import { claude, claudeLogPath, writeLog } from './test-fixtures/build-logs.js';
import type { ImportedCandidate } from './types.js';

let home: string;
let env: NodeJS.ProcessEnv;
let cacheFile: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-cidx-'));
  env = { HOME: home };
  cacheFile = join(home, 'baton-data', 'importers-cache.json');
});
afterEach(async () => {
  forgetScanCacheMemo();
  await rm(home, { recursive: true, force: true });
});

const MB = 1 << 20;

function candidate(i: number, extra: Partial<ImportedCandidate> = {}): ImportedCandidate {
  const externalId = `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return {
    source: 'claude',
    externalId,
    path: `/h/.claude/projects/p/${externalId}.jsonl`,
    title: `títle ${i} ✓ "quoted"\n`,
    cwd: `/home/dev/p${i % 3}/`,
    branch: 'main',
    updatedAt: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    messageCount: i,
    messageCountExact: true,
    model: null,
    cliVersion: '2.1.39',
    fingerprint: `fp-${i}`,
    resumeCommand: `claude --resume ${externalId}`,
    ...extra,
  };
}

async function writeSessions(n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, '0')}`;
    paths.push(
      await writeLog(claudeLogPath(home, `/home/dev/p${i % 4}`, id), [
        claude.user({ uuid: `${id}-u`, cwd: `/home/dev/p${i % 4}`, sessionId: id }, `prompt ${i}`),
        claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd: `/home/dev/p${i % 4}`, sessionId: id }, `${id}-m`, claude.text('ok')),
      ]),
    );
  }
  return paths;
}

describe('candidate index encoding', () => {
  it('saveCandidateIndex writes in the clear, part by part, exactly the bytes encodeCandidateIndex makes (small and over 1 MB, a part bigger than a chunk), and reads them back', async () => {
    for (const n of [0, 1, 7, 6_000]) {
      const entries = Array.from({ length: n }, (_, i) => entryOf(`/h/.claude/projects/p/${i}.jsonl`, 'claude', i, i, i % 5 === 4 ? null : candidate(i, { title: i === 3 ? 'x'.repeat(1_200_000) : `títle ${i}` }), i % 5 === 4 ? 'no messages' : null, [i, 0, 0, 0]));
      const meta = { folders: ['/h'], folderMtimes: [1], scope: 'all' as const, unindexed: 0, skipped: {} };
      const file = candidateIndexFileFor(cacheFile);
      await saveCandidateIndex(file, entries, meta);
      const written = await readFile(file);
      expect({ n, same: written.equals(encodeCandidateIndex(entries, meta)) }).toEqual({ n, same: true });
      const back = decodeCandidateIndexWithMeta(written)!;
      expect(back.entries.map((e) => e.rowText())).toEqual(decodeCandidateIndexWithMeta(encodeCandidateIndex(entries, meta))!.entries.map((e) => e.rowText()));
      expect(back.entries).toHaveLength(n);
    }
  });

  it('writes the columns, the extras and the listing block in pieces, each made once to be written: the columns byte for byte what JSON.stringify makes of them, none ever held whole, pieces filled again (10,000 entries)', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) =>
      i % 9 === 0 ? entryOf(`/h/.codex/sessions/ünï-${i}.jsonl`, 'codex', i, i + 0.25, null, 'no messages', [i, 1, 2, 3]) : entryOf(candidate(i).path, 'claude', i, i * 1.5, candidate(i, { model: `model ${'m'.repeat(200)}`, ...(i % 4 === 0 ? { note: 'torn "tail"' } : {}) }), null, [0, i, 0, 0]),
    );
    const file = candidateIndexFileFor(cacheFile);
    const stringify = JSON.stringify;
    const allocUnsafe = Buffer.allocUnsafe;
    let longest = 0;
    let longestPiece = 0;
    let biggestBuffer = 0;
    let allocated = 0;
    let arrayPieces = 0;
    Buffer.allocUnsafe = (size: number) => ((biggestBuffer = Math.max(biggestBuffer, size)), (allocated += size), allocUnsafe(size));
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      const text = stringify(...args);
      longest = Math.max(longest, text?.length ?? 0);
      if (Array.isArray(args[0])) (arrayPieces += 1), (longestPiece = Math.max(longestPiece, text?.length ?? 0));
      return text;
    }) as typeof JSON.stringify;
    try {
      await saveCandidateIndex(file, entries, { folders: ['/h'], folderMtimes: [1], scope: 'all', unindexed: 0, skipped: {} });
    } finally {
      JSON.stringify = stringify;
      Buffer.allocUnsafe = allocUnsafe;
    }
    const written = await readFile(file);
    const columnsStart = PREFIX_BYTES + written.readUInt32LE(8);
    const columns = written.toString('utf8', columnsStart, columnsStart + written.readUInt32LE(12));
    expect(columns.length).toBeGreaterThan(1_000_000);
    expect(stringify(JSON.parse(columns))).toBe(columns);
    // The listing block's rows are a few hundred bytes each, the columns' pieces 512 values.
    expect(longest).toBeLessThan(columns.length / 2);
    const head = JSON.parse(written.toString('utf8', PREFIX_BYTES, columnsStart)) as { listing: { blockBytes: number } };
    expect(biggestBuffer).toBeLessThan(head.listing.blockBytes / 2);
    // A megabyte per pass over the block (two: the groups' CRCs, the write), the extras (one) and
    // the columns (one), and the write's chunk: a new megabyte per piece of the block on every
    // pass, and the extras (2 MB) whole, were 12 MB here; sizing and summing the columns, the
    // extras and the block in a pass of their own before the write, 8 MB.
    expect(head.listing.blockBytes).toBeGreaterThan(2 * MB);
    expect(allocated).toBeLessThanOrEqual(5 * MB + 1024);
    // The columns made once: the folders' list, then 9 columns of 10,000 values in pieces of 512
    // (made twice, to size and sum them first and then to write them, they were twice as many).
    expect(arrayPieces).toBe(1 + 9 * Math.ceil(10_000 / 512));
    // The columns' pieces stay in V8's young generation (under 128 KB: not large objects).
    expect(longestPiece).toBeLessThan(128 * 1024);
    const fields = (list: readonly IndexEntry[]) => list.map((e) => [e.path, e.size, e.mtimeMs, e.skip, e.note, ...e.totals]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(fields(decodeCandidateIndexWithMeta(written)!.entries)).toEqual(fields(entries));
  });

  it('round-trips 300 entries, candidates and skips, with non-ASCII text, byte for byte, stored in listing order', () => {
    const entries = Array.from({ length: 300 }, (_, i) =>
      i % 7 === 0
        ? entryOf(`/x/skip-${i}.jsonl`, 'codex', i, i * 2, null, 'no messages', [1, 2, 3, 4])
        : entryOf(candidate(i).path, 'claude', i * 10, i * 3.5, candidate(i, i % 5 === 0 ? { note: 'torn' } : i % 11 === 0 ? { title: '', cwd: null, model: 'm' } : {}), null, [i, 0, 0, 1]),
    );
    const buf = encodeCandidateIndex(entries);
    const back = decodeCandidateIndexWithMeta(buf)!.entries;
    expect(back).toHaveLength(300);
    // Stored in listing order (groupItems), skipped files last.
    const listed = groupItems(entries.filter((e) => e.skip === null)).flatMap((g) => g.items.map((i) => (i as IndexEntry).path));
    expect(back.map((e) => e.path)).toEqual([...listed, ...entries.filter((e) => e.skip !== null).map((e) => e.path)]);
    const byPath = new Map(back.map((e) => [e.path, e]));
    for (let i = 0; i < 300; i++) {
      const a = entries[i]!;
      const b = byPath.get(a.path)!;
      const fields = (e: typeof a) => ({ path: e.path, source: e.source, size: e.size, mtimeMs: e.mtimeMs, skip: e.skip, at: e.at, cwd: e.cwd, id: e.id, note: e.note, totals: e.totals });
      expect(fields(b)).toEqual(fields(a));
      if (a.skip === null) {
        expect(b.candidate()).toEqual(a.candidate());
        expect(JSON.parse(b.rowText())).toEqual(candidateRow(a.candidate()));
      }
    }
    // Re-encoding decoded entries copies their bytes: the same file.
    expect(encodeCandidateIndex(back).equals(buf)).toBe(true);
  });

  it('a fresh entry keeps its candidate as its row and extras texts only (no candidate, row object or closures held), and gives back equal ones', () => {
    const variants = [candidate(1), candidate(2, { note: 'torn' }), candidate(3, { title: '', cwd: null, model: 'm', branch: null }), candidate(4, { messageCountExact: false, cliVersion: null })];
    for (const c of variants) {
      const entry = entryOf(c.path, 'claude', 10, 20, c, null, [1, 2, 3, 4]);
      // What each of 100,000 fresh entries holds: plain values and its totals, nothing to call, no object of the candidate's.
      for (const value of Object.values(entry)) expect(typeof value === 'function' || (typeof value === 'object' && value !== null && value !== entry.totals)).toBe(false);
      const back = entry.candidate();
      expect(back).not.toBe(c);
      expect(back).toEqual(c);
      expect(entry.row()).toEqual(candidateRow(c));
      expect(entry.rowText()).toBe(JSON.stringify(candidateRow(c)));
    }
    const skipped = entryOf('/x/skip.jsonl', 'codex', 1, 2, null, 'no messages', [0, 0, 0, 0]);
    expect(() => skipped.candidate()).toThrow(/not a candidate \(no messages\)/);
    expect(() => skipped.row()).toThrow(/not a candidate/);
  });

  it('refuses damaged or foreign files instead of serving them: every truncation and a flipped magic', () => {
    const buf = encodeCandidateIndex(Array.from({ length: 20 }, (_, i) => entryOf(candidate(i).path, 'claude', 1, 1, candidate(i), null, [0, 0, 0, 0])));
    for (let cut = 0; cut < buf.length; cut += 37) expect(decodeCandidateIndexWithMeta(buf.subarray(0, cut))).toBeNull();
    const foreign = Buffer.from(buf);
    foreign.write('XXXX', 0, 'latin1');
    expect(decodeCandidateIndexWithMeta(foreign)).toBeNull();
    expect(decodeCandidateIndexWithMeta(Buffer.from('{"version":2,"entries":{}}'))).toBeNull();
  });
});

describe('warm scans answer from the index', () => {
  it('does not parse the digest cache when nothing changed, and continues a grown file from it', async () => {
    const paths = await writeSessions(12);
    const cold = await scanCandidateIndex({ env, cacheFile });
    expect(cold.stats).toMatchObject({ files: 12, parsed: 12 });
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.entries.length).toBe(12);

    // A damaged digest cache proves a warm scan never reads it: the answer is still complete.
    const digest = await readFile(cacheFile, 'utf8');
    await writeFile(cacheFile, '{ damaged');
    forgetScanCacheMemo();
    const warm = await scanAgentSessions({ env, cacheFile });
    expect(warm.stats).toMatchObject({ files: 12, parsed: 0, cached: 12 });
    expect(warm.candidates.map((c) => c.title).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `prompt ${i}`).sort());

    await writeFile(cacheFile, digest);
    forgetScanCacheMemo();
    await appendFile(paths[3]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/p3', sessionId: 'x' }, 'later prompt')) + '\n');
    const grown = await scanAgentSessions({ env, cacheFile });
    expect(grown.stats.parsed).toBe(1);
    expect(grown.stats.bytesRead).toBeLessThan(1024); // continued, not re-read
    expect(grown.candidates.find((c) => c.path === paths[3])!.messageCount).toBe(3);
  });

  it('forgets a vanished file in the index at once, and in the digest cache at the next scan that reads a file', async () => {
    const paths = await writeSessions(5);
    await scanCandidateIndex({ env, cacheFile });
    await rm(paths[0]!);
    const after = await scanCandidateIndex({ env, cacheFile });
    expect(after.entries).toHaveLength(4);
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.entries.map((e) => e.path)).not.toContain(paths[0]);
    // Nothing was read: the digest cache was left as it was (rewriting it means parsing it whole).
    expect(Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).entries)).toContain(paths[0]);
    await appendFile(paths[1]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/p1', sessionId: 'x' }, 'later prompt')) + '\n');
    expect((await scanCandidateIndex({ env, cacheFile })).stats.parsed).toBe(1);
    expect(Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).entries).sort()).toEqual(paths.slice(1).sort());
  });

  it('lists after a file vanished without reading the digest cache', async () => {
    const paths = await writeSessions(5);
    await scanCandidateIndex({ env, cacheFile });
    await rm(paths[0]!);
    forgetScanCacheMemo(); // as a fresh `baton list` starts
    const readFile = vi.spyOn(fsp, 'readFile');
    try {
      const after = await scanCandidateIndex({ env, cacheFile });
      expect(after.entries.map((e) => e.path).sort()).toEqual(paths.slice(1).sort());
      // At 100,000 sessions that cache is 80 MB of text, parsed whole: the listing peaked near 500 MB.
      expect(readFile.mock.calls.filter(([file]) => file === cacheFile)).toEqual([]);
    } finally {
      readFile.mockRestore();
    }
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.entries.map((e) => e.path).sort()).toEqual(paths.slice(1).sort());
  });
});
