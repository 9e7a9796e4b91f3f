import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import type { SessionStore, NewSession } from '../store/types.js';
import { makeTempDir } from '../store/test-support/temp-dir.js';
import { createSearchService, INDEX_READ_PAGE, SEARCH_INDEX_FILE } from './search-service.js';
import { CHUNK_MESSAGES, MessageIndex } from './message-index.js';
import { enableEncryption } from '../store/at-rest/convert.js';
import { isSealedFile } from '../store/at-rest/at-rest-cipher.js';
import type { KeyStore } from '../store/at-rest/key-store.js';

const base: NewSession = { cwd: '/w/api', gitRoot: null, branch: null, title: 'session', source: { tool: 'claude' }, holder: 'terminal' };
let tmp: { dir: string; cleanup: () => Promise<void> };
let store: SessionStore;

beforeEach(async () => {
  tmp = await makeTempDir();
  store = await openStore(tmp.dir);
});
afterEach(async () => {
  await store.close();
  await tmp.cleanup();
});

const filler = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `routine message ${from + i} about the worker` }));

/** Counts reads of message logs, to prove a restart does not reread them. */
function counting(inner: SessionStore): { store: SessionStore; reads: () => number } {
  let reads = 0;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'readMessages') return (...args: Parameters<SessionStore['readMessages']>) => (reads++, target.readMessages(...args));
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, reads: () => reads };
}

describe('search service', () => {
  it('finds a phrase said in one session only, with the session, the seq and a snippet', async () => {
    const a = await store.createSession({ ...base, title: 'Payments retries' }, [...filler(130), { role: 'assistant', content: 'The quokka-calibrated retry budget caps it at 30 s.' }, ...filler(20, 131)]);
    await store.createSession({ ...base, title: 'Other' }, filler(70));
    const search = await createSearchService({ store, dataDir: tmp.dir });
    await search.syncAll();
    const { hits, tookMs } = await search.searchSessions('quokka calibrated');
    expect(hits).toEqual([{ sessionId: a.id, title: 'Payments retries', cwd: '/w/api', seq: 130, snippet: expect.stringContaining('quokka-calibrated retry budget') }]);
    expect(tookMs).toBeGreaterThanOrEqual(0);
    expect((await search.searchSessions('worker')).hits).toHaveLength(2);
    expect((await search.searchSessions('nothing-like-this')).hits).toEqual([]);
    // In one session: every message with all the terms, in order; the last term as a prefix.
    expect(await search.searchSession(a.id, 'quokka retr')).toEqual([130]);
    expect((await search.searchSession(a.id, 'routine message worker')).length).toBe(150);
    await search.close();
  });

  it('persists the index and updates it incrementally: a restart rereads no log, new messages are found', async () => {
    const s = await store.createSession(base, filler(CHUNK_MESSAGES * 3 + 7));
    const first = await createSearchService({ store, dataDir: tmp.dir });
    await first.syncAll();
    await first.close();
    expect(MessageIndex.fromBytes(await readFile(join(tmp.dir, SEARCH_INDEX_FILE)))?.indexedUpTo.get(s.id)).toBe(CHUNK_MESSAGES * 3 + 6);

    const watched = counting(store);
    const second = await createSearchService({ store: watched.store, dataDir: tmp.dir });
    await second.syncAll();
    expect(watched.reads()).toBe(0);
    expect((await second.searchSessions('routine')).hits.map((h) => h.sessionId)).toEqual([s.id]);

    // Messages land in the last, partial chunk: only that chunk is read again.
    await store.append(s.id, 1, [{ role: 'user', content: 'and now the armadillo cache' }]);
    second.sessionChanged(s.id);
    expect((await second.searchSessions('armadillo')).hits.map((h) => h.seq)).toEqual([CHUNK_MESSAGES * 3 + 7]);
    expect((await second.searchSessions('routine')).hits).toHaveLength(1);
    expect(await second.searchSession(s.id, 'routine message 3')).toContain(3);
    await second.close();
  });

  it('a restart with nothing new leaves the saved index as it is; a new message or a deleted session rewrites it', async () => {
    // The file is tens of MB for a 1 GB session (sealed whole when the store is encrypted): a host
    // rewriting it after every start did so right when the UI's first screens come (issue 20).
    const kept = await store.createSession(base, filler(CHUNK_MESSAGES + 3));
    const gone = await store.createSession(base, [{ role: 'user', content: 'the okapi ledger' }]);
    const first = await createSearchService({ store, dataDir: tmp.dir });
    await first.syncAll();
    await first.close();
    const file = join(tmp.dir, SEARCH_INDEX_FILE);
    const saved = await stat(file);
    // The atomic write renames a new file into place: another inode means the index was written.
    const rewritten = async () => (await stat(file)).ino !== saved.ino;

    const second = await createSearchService({ store, dataDir: tmp.dir });
    await second.syncAll();
    second.sessionChanged(kept.id); // a change notice with no new message
    await second.close();
    expect(await rewritten()).toBe(false);

    const third = await createSearchService({ store, dataDir: tmp.dir });
    await store.append(kept.id, 1, [{ role: 'user', content: 'and the tapir queue' }]);
    third.sessionChanged(kept.id);
    expect((await third.searchSessions('tapir')).hits).toHaveLength(1);
    await third.close();
    expect(await rewritten()).toBe(true);
    expect(MessageIndex.fromBytes(await readFile(file))?.indexedUpTo.get(kept.id)).toBe(CHUNK_MESSAGES + 3);

    const afterAppend = await stat(file);
    await store.delete(gone.id);
    const fourth = await createSearchService({ store, dataDir: tmp.dir });
    await fourth.syncAll();
    await fourth.close();
    expect((await stat(file)).ino).not.toBe(afterAppend.ino);
    expect(MessageIndex.fromBytes(await readFile(file))?.indexedUpTo.has(gone.id)).toBe(false);
  });

  it('an index saved in the clear before `baton encrypt --enable` is written again, sealed, though nothing changed', async () => {
    const s = await store.createSession(base, [{ role: 'user', content: 'the okapi ledger' }]);
    const plain = await createSearchService({ store, dataDir: tmp.dir });
    await plain.syncAll();
    await plain.close();
    await store.close();
    const secrets = new Map<string, Buffer>();
    const keyStore: KeyStore = { label: 'memory', read: async (a) => secrets.get(a), write: async (a, k) => void secrets.set(a, Buffer.from(k)), remove: async (a) => secrets.delete(a) };
    await enableEncryption(tmp.dir, { keyStore });
    const file = join(tmp.dir, SEARCH_INDEX_FILE);
    // The conversion leaves the search index to its service (it reads plaintext too).
    expect(isSealedFile(await readFile(file))).toBe(false);

    const encrypted = await openStore(tmp.dir, { keyStore });
    expect(encrypted.atRest.state).toBe('on');
    store = encrypted;
    const sealed = await createSearchService({ store, dataDir: tmp.dir });
    await sealed.syncAll();
    expect((await sealed.searchSessions('okapi')).hits.map((h) => h.sessionId)).toEqual([s.id]);
    await sealed.close();
    const onDisk = await readFile(file);
    expect(isSealedFile(onDisk)).toBe(true);
    expect(onDisk.includes('okapi')).toBe(false);
  });

  it('a host stopped while it indexes a big session stops within a page, keeps what it indexed, and the next one resumes there', async () => {
    const total = INDEX_READ_PAGE * 6 + 10;
    const s = await store.createSession(base, filler(total));
    let service: Awaited<ReturnType<typeof createSearchService>> | undefined;
    let closing: Promise<void> | undefined;
    let reads = 0;
    // The third page read asks the service to close, as a host's shutdown would, mid-session.
    const stopping = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'readMessages')
          return async (...args: Parameters<SessionStore['readMessages']>) => {
            if (++reads === 3) closing = service!.close();
            return target.readMessages(...args);
          };
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    service = await createSearchService({ store: stopping, dataDir: tmp.dir });
    await service.syncAll();
    await closing;
    expect(reads).toBe(3);
    const saved = MessageIndex.fromBytes(await readFile(join(tmp.dir, SEARCH_INDEX_FILE)))!.indexedUpTo.get(s.id)!;
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(total - 1);

    const watched = counting(store);
    const next = await createSearchService({ store: watched.store, dataDir: tmp.dir });
    await next.syncAll();
    // Only from the first chunk not indexed: fewer pages than the whole log takes.
    expect(watched.reads()).toBeLessThan(Math.ceil(total / INDEX_READ_PAGE) + 1);
    expect(watched.reads()).toBeGreaterThan(0);
    expect((await next.searchSession(s.id, 'routine message worker')).length).toBe(Math.min(total, 2_000));
    expect(await next.searchSession(s.id, `routine message ${total - 1}`)).toContain(total - 1);
    await next.close();
  });

  it('a host’s delayed load of the saved index happens at once when a search asks', async () => {
    const s = await store.createSession(base, [...filler(10), { role: 'user', content: 'the okapi ledger' }]);
    const first = await createSearchService({ store, dataDir: tmp.dir });
    await first.syncAll();
    await first.close();
    const watched = counting(store);
    const delayed = await createSearchService({ store: watched.store, dataDir: tmp.dir, loadDelayMs: 600_000 });
    const started = performance.now();
    expect((await delayed.searchSessions('okapi')).hits.map((h) => [h.sessionId, h.seq])).toEqual([[s.id, 10]]);
    expect(performance.now() - started).toBeLessThan(30_000);
    // Loaded from the file, not rebuilt from the log (only the hit's one message was read).
    expect(watched.reads()).toBe(1);
    await delayed.close();
  });

  it('two words in one chunk but never in one message: no hit, and no log read to find that out; a hit reads its one message', async () => {
    // "mifuka" and "tenkaka" share the chunk 0–199 of `apart` but no message; `together` says both once.
    const apart = await store.createSession({ ...base, title: 'apart' }, [...filler(50), { role: 'user', content: 'mifuka only' }, ...filler(100, 51), { role: 'assistant', content: 'tenkaka only' }]);
    const together = await store.createSession({ ...base, title: 'together' }, [...filler(120), { role: 'assistant', content: 'mifuka then tenkaka' }, ...filler(60, 121)]);
    const first = await createSearchService({ store, dataDir: tmp.dir });
    await first.syncAll();
    await first.close();
    const watched = counting(store);
    const search = await createSearchService({ store: watched.store, dataDir: tmp.dir });
    await search.syncAll();
    const before = watched.reads();
    const { hits } = await search.searchSessions('mifuka tenkaka');
    expect(hits.map((h) => [h.title, h.seq])).toEqual([['together', 120]]);
    // One read of one message: `apart`'s chunk is never read.
    expect(watched.reads() - before).toBe(1);
    expect(await search.searchSession(apart.id, 'mifuka tenkaka')).toEqual([]);
    expect(await search.searchSession(together.id, 'tenkaka mifu')).toEqual([120]);
    await search.close();
  });

  it('finds `worker-12.ts` the way the e2e large session says it (Markdown backticks and bold), across and inside a session', async () => {
    // The messages of e2e/support/large-session.ts that broke message-level search: the backtick
    // is a symbol, and glued to the word it hid "worker" from the index.
    const said = Array.from({ length: 2 * CHUNK_MESSAGES + 10 }, (_, n) => ({ role: 'user' as const, content: `Step ${n}: check the **timeout** handling in \`worker-${n % 97}.ts\`.` }));
    const s = await store.createSession({ ...base, title: 'large' }, said);
    const search = await createSearchService({ store, dataDir: tmp.dir });
    await search.syncAll();
    const all = said.map((_, n) => n);
    expect(await search.searchSession(s.id, 'worker ts')).toEqual(all);
    expect(await search.searchSession(s.id, 'timeout worker')).toEqual(all);
    expect(await search.searchSession(s.id, 'worker-12.ts')).toEqual(all.filter((n) => n % 97 === 12 || n === 12));
    const { hits } = await search.searchSessions('worker-12.ts');
    expect(hits.map((h) => h.sessionId)).toEqual([s.id]);
    expect(said[hits[0]!.seq]!.content).toContain('`worker-12.ts`');
    await search.close();
  });

  it('a damaged index file is rebuilt from the logs', async () => {
    await store.createSession(base, [{ role: 'user', content: 'pangolin migration' }]);
    await writeFile(join(tmp.dir, SEARCH_INDEX_FILE), Buffer.from([0x42, 0x54, 0x53, 0x49, 3, 0, 0, 0, 200, 0, 0, 0, 123]));
    const search = await createSearchService({ store, dataDir: tmp.dir });
    await search.syncAll();
    expect((await search.searchSessions('pangolin')).hits).toHaveLength(1);
    await search.close();
  });
});
