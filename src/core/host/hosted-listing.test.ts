import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupItems, limitGroups, type ListFilter } from '../importers/candidate-list.js';
import { LIST_JSON_VERSION } from '../importers/list-json.js';
import { forgetScanCacheMemo } from '../importers/scan-cache.js';
import { scanCandidateIndex } from '../importers/scan.js';
import { ageFolders, Corpus, render } from '../importers/test-fixtures/generated-corpus.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { createAgentCandidates } from './agent-candidates.js';
import { createCandidateMethods } from './candidate-listing.js';

/**
 * The host's listings (whole, by parts, --limit, --cwd, --source) against a cold full scan of the
 * same files, over generated corpora that change while the host runs: the host starts from a
 * resident index (extras and rows left on disk) and keeps it by watching.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-hosted-listing-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The groups, counts and notes of a `baton list --json` document (agentScan's timing differs by nature). */
function essence(doc: string): unknown {
  const { groups, total, shown, notes } = JSON.parse(doc) as Record<string, unknown>;
  return { groups, total, shown, notes };
}

async function coldDocument(c: Corpus, filter: ListFilter, limit: number | undefined): Promise<unknown> {
  const fresh = join(c.home, `ref-${Math.random().toString(36).slice(2)}`, 'importers-cache.json');
  forgetScanCacheMemo();
  const scan = await scanCandidateIndex({ env: c.env, cacheFile: fresh });
  await rm(join(fresh, '..'), { recursive: true, force: true });
  const all = groupItems(scan.entries, filter);
  const shown = limit === undefined ? all : limitGroups(all, limit);
  const doc = JSON.parse(await render(shown)) as { groups: unknown; total: number };
  const notes = scan.entries.filter((e) => e.note).map((e) => `${e.path}: ${e.note}`).sort();
  return { groups: doc.groups, total: all.reduce((n, g) => n + g.items.length, 0), shown: shown.reduce((n, g) => n + g.items.length, 0), notes };
}

describe('hosted listings from a resident index', () => {
  it('over 30 generated corpora changed 3 times while the host runs, whole or by parts, with --limit, --cwd, --source: the same rows as a cold full scan', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed * 7919);
      const c = new Corpus(join(root, `c${seed}`), random);
      await mkdir(c.home, { recursive: true });
      const n = 3 + Math.floor(random() * 40);
      for (let i = 0; i < n; i++) await c.add();
      // Indexed and confirmed, folders aged past the racy window: the host starts from the index.
      await ageFolders(c.home);
      forgetScanCacheMemo();
      await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
      const dataDir = join(c.home, 'data');
      const candidates = createAgentCandidates({ dataDir, env: c.env, debounceMs: 30 });
      try {
        await candidates.ready;
        const methods = createCandidateMethods({ candidates, listRows: async () => [], cliVersion: LIST_JSON_VERSION, listingDir: join(dataDir, 'listings') });
        const call = async (params: Record<string, unknown>) => (await methods['candidates.list']!({ id: 'r', method: 'candidates.list', params } as never, {} as never)) as Record<string, unknown>;
        const hosted = async (filter: ListFilter, limit: number | undefined, byParts: boolean): Promise<unknown> => {
          const params = { ...filter, ...(limit !== undefined ? { limit } : {}) };
          const first = await call(byParts ? params : { ...params, fileFirst: true });
          expect(first.ok).toBe(true);
          if (!byParts && typeof first.file === 'string') return essence(await readFile(first.file, 'utf8'));
          let text = first.text as string;
          for (let k = 1; k < (first.parts as number); k++) text += (await call({ listing: first.listing, part: k })).text as string;
          return essence(text);
        };
        for (let step = 0; step < 3; step++) {
          const filter: ListFilter = random() < 0.3 ? { source: random() < 0.5 ? 'claude' : 'codex' } : random() < 0.25 ? { cwd: '/home/dev/a' } : {};
          const limit = random() < 0.3 ? Math.floor(random() * 8) : undefined;
          const byParts = random() < 0.4;
          await candidates.current();
          expect(await hosted(filter, limit, byParts), `seed ${seed} step ${step}`).toEqual(await coldDocument(c, filter, limit));
          const change = await c.mutate();
          seen.add(change);
          // The watch takes the change within a second: poll the whole listing until the host agrees, then compare the asked one.
          // Up to 15 s: a loaded CI machine fires the watch's timers and finishes its reads late.
          const whole = await coldDocument(c, {}, undefined);
          const end = Date.now() + 15_000;
          while (JSON.stringify(await hosted({}, undefined, false)) !== JSON.stringify(whole) && Date.now() < end) {
            await new Promise((r) => setTimeout(r, 50));
            await candidates.current();
          }
          const want = await coldDocument(c, filter, limit);
          const got = await hosted(filter, limit, byParts);
          expect(got, `seed ${seed} step ${step}: after ${change}`).toEqual(want);
        }
      } finally {
        await candidates.close();
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(7);
  }, 600_000);
});
