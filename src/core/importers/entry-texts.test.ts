import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateRow } from '../../shared/agents.js';
import { decodeCandidateIndexWithMeta, encodeCandidateIndex, entryOf, type IndexEntry } from './candidate-index.js';
import { EntryTexts, SCAN_TEXT_CHUNK_BYTES } from './entry-texts.js';
import type { ImportedCandidate } from './types.js';

function candidate(i: number, extra: Partial<ImportedCandidate> = {}): ImportedCandidate {
  const externalId = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return {
    source: 'claude',
    externalId,
    path: `/h/.claude/projects/p/${externalId}.jsonl`,
    title: `Session ${i}: ünïcode ✓ 漢字 🙂 "quoted"\n`,
    cwd: `/home/dev/p${i % 3}`,
    branch: 'main',
    updatedAt: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    messageCount: i,
    messageCountExact: i % 2 === 0,
    model: i % 3 === 0 ? null : 'claude-opus',
    cliVersion: '2.1.39',
    fingerprint: `fp-${i}`,
    resumeCommand: `claude --resume ${externalId}`,
    ...extra,
  };
}

describe('EntryTexts (issue 15)', () => {
  it('gives back every pair as placed, in shared chunks, a pair larger than a chunk in one of its own', () => {
    const texts = new EntryTexts(64);
    const pairs: Array<[string, string]> = [
      ['{"a":"ü✓"}', '[1,"🙂"]'],
      ['x'.repeat(10), 'y'.repeat(10)],
      ['', '[]'],
      ['{"big":"' + '漢'.repeat(100) + '"}', '"lone \\ud800 escaped"'],
      ['{"after":1}', 'null'],
    ];
    const placed = pairs.map(([a, b]) => texts.place(a, b));
    placed.forEach((p, k) => {
      expect(p.chunk.toString('utf8', p.start, p.mid)).toBe(pairs[k]![0]);
      expect(p.chunk.toString('utf8', p.mid, p.end)).toBe(pairs[k]![1]);
    });
    // 23, 20 and 2 bytes share the first chunk of 64; the next pair (over 300 bytes) gets one of exactly its size.
    expect(placed[1]!.chunk).toBe(placed[0]!.chunk);
    expect(placed[2]!.chunk).toBe(placed[0]!.chunk);
    expect([placed[0]!.chunk.length, placed[2]!.end]).toEqual([64, 45]);
    expect([placed[3]!.start, placed[3]!.chunk.length]).toEqual([0, placed[3]!.end]);
    expect(placed[4]!.chunk).not.toBe(placed[3]!.chunk);
    expect(placed[4]!.chunk.length).toBe(64);
  });

  it('without a chunk size, each pair gets a chunk of exactly its bytes (a rescanned entry never keeps a shared chunk alive)', () => {
    const texts = new EntryTexts();
    const a = texts.place('{"a":1}', '[2]');
    const b = texts.place('{"b":"ü"}', '[]');
    expect(a.chunk).not.toBe(b.chunk);
    expect([a.chunk.length, b.chunk.length]).toEqual([10, Buffer.byteLength('{"b":"ü"}[]')]);
  });

  it("entries of a shared store give back their candidate, row and bytes, and encode to the same index as entries made one by one", () => {
    const texts = new EntryTexts(SCAN_TEXT_CHUNK_BYTES);
    const make = (store?: EntryTexts): IndexEntry[] =>
      Array.from({ length: 400 }, (_, i) =>
        i % 7 === 0
          ? entryOf(`/h/.codex/skip-${i}.jsonl`, 'codex', i, i, null, 'no messages', [1, 0, 0, 0], store)
          : entryOf(candidate(i).path, 'claude', i * 10, i * 1.5, candidate(i, i % 5 === 0 ? { note: 'torn', title: 'x'.repeat(100_000) } : {}), null, [0, i, 0, 0], store),
      );
    const shared = make(texts);
    for (let i = 1; i < shared.length; i += 7) {
      const e = shared[i]!;
      const c = candidate(i, i % 5 === 0 ? { note: 'torn', title: 'x'.repeat(100_000) } : {});
      expect(e.candidate()).toEqual(c);
      expect(e.rowText()).toBe(JSON.stringify(candidateRow(c)));
      const target = Buffer.alloc(Buffer.byteLength(e.rowText()) + 3);
      const copy = (e as unknown as { copyRow(t: Buffer, at: number): number }).copyRow;
      expect(copy.call(e, target, 3)).toBe(target.length);
      expect(target.toString('utf8', 3)).toBe(e.rowText());
      expect(copy.call(e, target, 4)).toBe(-1); // no room: nothing written
    }
    const buf = encodeCandidateIndex(shared);
    expect(buf.equals(encodeCandidateIndex(make()))).toBe(true);
    // And a decoded index's entries, encoded again, are the same bytes.
    expect(encodeCandidateIndex(decodeCandidateIndexWithMeta(buf)!.entries).equals(buf)).toBe(true);
  });
});

// A cold scan keeps every fresh entry to its end: their texts are kept outside the heap. The child
// makes 50,000 entries with one shared store (as a full scan does), their titles and directories
// (one string each, as a worker's answer gives them) padded by PAD characters, and reports the
// heap each holds (between full collections, so only what stays alive counts). Longer rows and
// directories must not make the heap larger.
const MODULE = resolve(import.meta.dirname, 'candidate-index.ts');
const TEXTS = resolve(import.meta.dirname, 'entry-texts.ts');
const CHILD = `
const { entryOf } = await import(${JSON.stringify(MODULE)});
const { EntryTexts, SCAN_TEXT_CHUNK_BYTES } = await import(${JSON.stringify(TEXTS)});
const pad = ' and more'.repeat(Number(process.env.PAD) / 9);
const texts = new EntryTexts(SCAN_TEXT_CHUNK_BYTES);
const path = (i) => '/home/dev/.claude/projects/-home-dev-project/' + i + '-5c48-40b9-9f0e-6b1d2c3a4e5f.jsonl';
const paths = Array.from({ length: 50_000 }, (_, i) => path(i));
const entries = [];
globalThis.gc();
const before = process.memoryUsage().heapUsed;
let rowChars = 0;
for (let i = 0; i < 50_000; i++) {
  const id = i + '-5c48-40b9-9f0e-6b1d2c3a4e5f';
  const c = { source: 'claude', externalId: id, path: paths[i], title: 'Session ' + i + ': make the build green again' + pad, cwd: '/home/dev/project-' + (i % 50) + pad, branch: 'main', updatedAt: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(), messageCount: i % 40, messageCountExact: true, model: 'claude-opus-4', cliVersion: '2.1.39', fingerprint: 'fp-' + id, resumeCommand: 'claude --resume ' + id };
  const e = entryOf(paths[i], 'claude', 20_000 + i, 1.7e12 + i + 0.5, c, null, [0, 0, 0, 0], texts);
  rowChars += e.rowText().length;
  entries.push(e);
}
globalThis.gc();
globalThis.gc();
process.stdout.write(JSON.stringify({ perEntry: (process.memoryUsage().heapUsed - before) / entries.length, rowChars: rowChars / entries.length }));
`;

function heapPerEntry(pad: number): Promise<{ perEntry: number; rowChars: number }> {
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD], { env: { ...process.env, PAD: String(pad) } }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(JSON.parse(stdout) as { perEntry: number; rowChars: number }),
    ),
  );
}

describe("a full scan's entries (issue 15)", () => {
  it('hold their row and extras outside the heap, and one string per directory: 900 more characters of title and of directory cost the heap nothing more', async () => {
    const [short, long] = await Promise.all([heapPerEntry(0), heapPerEntry(900)]);
    expect(long.rowChars - short.rowChars).toBeCloseTo(1800, 3);
    // Measured: ~0 bytes an entry more with the texts as bytes and the directories shared; ~1,800
    // more with the texts as strings, ~900 more with a directory string per entry.
    expect(long.perEntry - short.perEntry).toBeLessThan(64);
  }, 60_000);
});
