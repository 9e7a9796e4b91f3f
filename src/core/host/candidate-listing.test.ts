import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexEntry } from '../importers/candidate-index.js';
import type { AgentCandidates } from './agent-candidates.js';
import { closeCandidateMethods, createCandidateMethods, renderListing, RENDER_CACHE_SIZE } from './candidate-listing.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-cl-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Listing entries as the index gives them (only what a listing reads), with titles in several scripts. */
function entriesOf(n: number): IndexEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const row = { id: `claude-${i}`, title: `session ${i} "quoted" é 中 😀 ${'x'.repeat(i % 200)}`, cwd: `/w/p${i % 9}`, updatedAt: new Date(1_790_000_000_000 + i * 1000).toISOString() };
    return { path: `/h/${i}.jsonl`, source: 'claude', cwd: row.cwd, at: 1_790_000_000_000 + i * 1000, id: row.id, note: null, skip: null, text: () => JSON.stringify(row) } as unknown as IndexEntry;
  });
}

function fakeCandidates(entries: IndexEntry[]): AgentCandidates {
  return { current: async () => undefined, version: () => 1, entries: () => entries, stats: () => null } as unknown as AgentCandidates;
}

const call = (methods: ReturnType<typeof createCandidateMethods>, params: unknown) => methods['candidates.list']!({ id: 'r', method: 'candidates.list', params } as never, {} as never) as Promise<Record<string, unknown>>;

describe('hosted listings rendered into files', () => {
  it('answers the document as a file and as parts, equal to the in-memory render; evicted renders close and remove their file', async () => {
    const entries = entriesOf(4000);
    const listingDir = join(dir, 'listings');
    const methods = createCandidateMethods({ candidates: fakeCandidates(entries), listRows: async () => [], cliVersion: 1, listingDir });
    const expected = await renderListing([], entries, { agents: true, filter: {} }, null, 1);

    const first = await call(methods, {});
    expect(first.ok).toBe(true);
    expect(first.parts as number).toBeGreaterThan(3);
    expect(await readFile(first.file as string, 'utf8')).toBe(expected);
    const parts = [first.text as string];
    for (let k = 1; k < (first.parts as number); k++) parts.push((await call(methods, { listing: first.listing, part: k })).text as string);
    expect(parts.join('')).toBe(expected);
    expect(await call(methods, { listing: first.listing, part: first.parts })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });

    // A small listing fits one frame: no file.
    const small = await call(methods, { limit: 3 });
    expect(small).toMatchObject({ ok: true, parts: 1 });
    expect(small.file).toBeUndefined();

    // More renders than the cache keeps: the oldest file goes, and its parts are no longer answered.
    for (let limit = 1000; limit < 1000 + RENDER_CACHE_SIZE; limit++) expect((await call(methods, { limit })).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    const files = await readdir(listingDir);
    expect(files).not.toContain((first.file as string).split('/').pop());
    expect(files.length).toBeLessThanOrEqual(RENDER_CACHE_SIZE);
    expect(await call(methods, { listing: first.listing, part: 1 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    await closeCandidateMethods(methods);
  });

  it('without a listings folder (an encrypted store) renders in memory, in parts, the same document', async () => {
    const entries = entriesOf(3000);
    const methods = createCandidateMethods({ candidates: fakeCandidates(entries), listRows: async () => [], cliVersion: 1 });
    const first = await call(methods, {});
    expect(first.file).toBeUndefined();
    const parts = [first.text as string];
    for (let k = 1; k < (first.parts as number); k++) parts.push((await call(methods, { listing: first.listing, part: k })).text as string);
    expect(parts.join('')).toBe(await renderListing([], entries, { agents: true, filter: {} }, null, 1));
  });
});
