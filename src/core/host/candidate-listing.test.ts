import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexEntry } from '../importers/candidate-index.js';
import type { AgentCandidates } from './agent-candidates.js';
import { closeCandidateMethods, createCandidateMethods, renderListing, RENDER_CACHE_SIZE, startCandidateListings } from './candidate-listing.js';

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

// Issue 17: an encrypted store's listings may be in the clear (in memory: listing-place.ts), so
// what a host leaves behind matters: nothing in the clear once it stops, nothing an earlier host left.
describe('the listing files a host leaves behind', () => {
  const filesIn = async (folder: string) => (await readdir(folder).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));

  it('removes its listings in the clear when it stops, keeps its sealed ones (their key is gone), 0600 files in a 0700 folder', async () => {
    const entries = entriesOf(3000);
    for (const sealListings of [false, true]) {
      const listingDir = join(dir, `listings-${sealListings}`);
      const methods = createCandidateMethods({ candidates: fakeCandidates(entries), listRows: async () => [], cliVersion: 1, listingDir, sealListings });
      const answers = [await call(methods, {}), await call(methods, { limit: 2000 })];
      for (const a of answers) expect(String(a.file)).toMatch(sealListings ? /\.sealed$/ : /\.json$/);
      expect((await stat(listingDir)).mode & 0o777).toBe(0o700);
      for (const name of await filesIn(listingDir)) expect((await stat(join(listingDir, name))).mode & 0o777, name).toBe(0o600);
      expect(await filesIn(listingDir)).toHaveLength(2);
      await closeCandidateMethods(methods);
      expect(await filesIn(listingDir), `sealed: ${sealListings}`).toHaveLength(sealListings ? 2 : 0);
    }
  });

  it('leaves nothing of a listing still rendering when it stops', async () => {
    const listingDir = join(dir, 'listings');
    const methods = createCandidateMethods({ candidates: fakeCandidates(entriesOf(20_000)), listRows: async () => [], cliVersion: 1, listingDir });
    const answer = call(methods, {});
    // Stopped once the render's temporary file is there: mid-render.
    let seen: string[] = [];
    for (let turn = 0; turn < 10_000 && !seen.some((n) => n.endsWith('.tmp')); turn++) {
      await new Promise((r) => setImmediate(r));
      seen = await filesIn(listingDir);
    }
    expect(seen.some((n) => n.endsWith('.tmp'))).toBe(true);
    await closeCandidateMethods(methods);
    const answered = await answer;
    expect(answered.ok).toBe(true);
    expect(answered.file).toBeUndefined(); // answered from memory: the file went with the host
    expect(await filesIn(listingDir)).toEqual([]);
  });

  it('empties the folders an earlier host left listings in once started, and before its first listing file', async () => {
    const entries = entriesOf(3000);
    const [current, other] = [join(dir, 'runtime-listings'), join(dir, 'data-listings')];
    const leftOver = async () => {
      for (const folder of [current, other]) {
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, 'listing-00000000000000000000000000000000.json'), 'TITLES IN THE CLEAR');
      }
    };
    await leftOver();
    const started = createCandidateMethods({ candidates: fakeCandidates(entries), listRows: async () => [], cliVersion: 1, listingDir: current, staleListingDirs: [current, other] });
    // Not before it holds the socket: a host refused it must not remove a live host's files.
    expect(await filesIn(other)).toHaveLength(1);
    await startCandidateListings(started);
    expect(await filesIn(current)).toEqual([]);
    expect(await filesIn(other)).toEqual([]);
    await closeCandidateMethods(started);

    await leftOver();
    const listing = createCandidateMethods({ candidates: fakeCandidates(entries), listRows: async () => [], cliVersion: 1, listingDir: current, staleListingDirs: [current, other] });
    const answer = await call(listing, {});
    expect(await filesIn(current)).toEqual([String(answer.file).split('/').pop()]);
    expect(await filesIn(other)).toEqual([]);
    await closeCandidateMethods(listing);
  });
});
