import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingKeyStore } from '../../../cli/commands/listing-key-store.js';
import { candidateIndexFileFor, verifiedFileOf } from '../../importers/candidate-index.js';
import { forgetScanCacheMemo } from '../../importers/scan-cache.js';
import { scanCandidateIndex } from '../../importers/scan.js';
import { claude, claudeLogPath, writeLog } from '../../importers/test-fixtures/build-logs.js';
import { importersCacheFile } from '../../paths.js';
import { SEARCH_INDEX_FILE } from '../../search/search-service.js';
import { openStore } from '../index.js';
import { FILE_MAGIC } from './at-rest-cipher.js';
import { PLAIN_CACHES_OF_A_NEW_STORE } from './at-rest-state.js';
import type { KeyStore } from './key-store.js';

/**
 * A `baton list` on a new data directory opens the store without creating a key, so its scan
 * writes the importers' cache and the candidate index in the clear. When the first session then
 * turns encryption on, those caches must not stay readable: they are removed, and the next scan
 * writes them sealed.
 */
const MARKER = 'NUMBAT-3310-MARKER';
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-new-store-caches-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

function memoryKeys(): KeyStore {
  const secrets = new Map<string, Buffer>();
  return { label: 'memory', read: async (a) => secrets.get(a), write: async (a, s) => void secrets.set(a, Buffer.from(s)), remove: async (a) => secrets.delete(a) };
}

describe('caches of a new store written before its key', () => {
  it('the names are the ones the importers and the search index write', () => {
    const cache = importersCacheFile(root);
    expect(PLAIN_CACHES_OF_A_NEW_STORE).toEqual([basename(cache), basename(candidateIndexFileFor(cache)), basename(verifiedFileOf(candidateIndexFileFor(cache))), SEARCH_INDEX_FILE]);
  });

  it('are removed when the store turns encrypted, and the next scan writes them sealed', async () => {
    const home = join(root, 'home');
    const dataDir = join(root, 'data');
    for (let i = 0; i < 5; i++) {
      const id = `abababab-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await writeLog(claudeLogPath(home, '/home/dev/a', id), [claude.user({ uuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `${MARKER} ${i}`)]);
    }
    const keys = memoryKeys();
    // The listing: the store opened without a key, the scan's caches in the clear.
    const listing = await openStore(dataDir, { keyStore: listingKeyStore(keys) });
    expect(listing.atRest.state).toBe('off');
    forgetScanCacheMemo();
    await scanCandidateIndex({ env: { HOME: home }, cacheFile: importersCacheFile(dataDir) });
    await listing.close();
    const cache = importersCacheFile(dataDir);
    for (const file of [cache, candidateIndexFileFor(cache)]) expect((await readFile(file)).includes(MARKER), file).toBe(true);

    // The first session: encryption on by default; the clear caches are gone.
    const store = await openStore(dataDir, { keyStore: keys });
    expect(store.atRest.state).toBe('on');
    for (const name of PLAIN_CACHES_OF_A_NEW_STORE) expect(existsSync(join(dataDir, name)), name).toBe(false);
    await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'claude' }, holder: 'terminal' }, [{ role: 'user', content: 'hi' }]);
    forgetScanCacheMemo();
    const again = await scanCandidateIndex({ env: { HOME: home }, cacheFile: cache });
    expect(again.entries).toHaveLength(5);
    for (const file of [cache, candidateIndexFileFor(cache)]) {
      const bytes = await readFile(file);
      expect(bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC), file).toBe(true);
      expect(bytes.includes(MARKER), file).toBe(false);
    }
    await store.close();
    // Opened again (encryption.json exists): nothing is removed any more.
    const reopened = await openStore(dataDir, { keyStore: keys });
    expect(existsSync(cache)).toBe(true);
    await reopened.close();
  });
});
