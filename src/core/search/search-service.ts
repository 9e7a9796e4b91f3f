import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MessageRecord } from '../../shared/message.js';
import type { SessionStore } from '../store/types.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { type ChunkHit, chunkOf, MessageIndex, searchableText } from './message-index.js';
import { openFileFor, sealedAsStoreWrites, storeFsFor } from '../store/at-rest/registry.js';
import { termsOf, wordsMatch } from '../../shared/search-terms.js';

/** The index file in the data directory (rebuilt from the logs when missing or damaged). */
export const SEARCH_INDEX_FILE = 'search-index.bin';
/** The minisearch JSON index of format 2, removed at start (its replacement is rebuilt from the logs). */
const LEGACY_INDEX_FILE = 'search-index.json';
/** Messages read per page while indexing a session (paged by seq: the log is never read whole). */
export const INDEX_READ_PAGE = 1_000;
/** The index is written this long after the last change, not on every message. */
export const PERSIST_DELAY_MS = 2_000;
/**
 * While one session is being indexed (a 1 GB log takes minutes), what is indexed so far is written
 * at least this often: a host stopped midway resumes there instead of reading the log again.
 */
export const PERSIST_PROGRESS_MS = 10_000;
/**
 * A host loads the saved index this long after it starts, or at once when a search asks:
 * loading the index of a 1 GB session is seconds of CPU, which must not compete with the first
 * screens a host serves right after it starts (issue 20).
 */
export const INDEX_LOAD_DELAY_MS = 3_000;
/** Sessions a cross-session query answers with. */
export const SEARCH_SESSIONS_MAX = 20;
/** Hits a search inside one session answers with. */
export const SESSION_HITS_MAX = 2_000;
const SNIPPET_CHARS = 80;

export interface SessionSearchHit {
  sessionId: string;
  title: string;
  cwd: string;
  seq: number;
  snippet: string;
  /** Set for a Claude Code / Codex session not in Baton yet (candidate-search.ts): sessionId is its row id. */
  source?: 'claude' | 'codex';
}

export interface SearchService {
  /** Brings every session of the store up to date (at start: only what landed since the last run). */
  syncAll(): Promise<void>;
  /** A session gained messages (or was created): indexed soon, incrementally. */
  sessionChanged(id: string): void;
  searchSessions(query: string, limit?: number): Promise<{ hits: SessionSearchHit[]; tookMs: number }>;
  /** Every message of one session holding all the query's terms, by seq. */
  searchSession(id: string, query: string): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * True when `message` holds every term as a word (the index's tokenizer; the last term as a
 * prefix): the same test the index answers, so a read message confirms exactly what it named.
 */
export function messageMatches(message: Pick<MessageRecord, 'content' | 'toolCalls'>, terms: readonly string[]): boolean {
  return wordsMatch(termsOf(searchableText(message)), terms);
}

export function snippetOf(text: string, term: string): string {
  const at = Math.max(0, text.toLowerCase().indexOf(term));
  const start = Math.max(0, at - SNIPPET_CHARS / 2);
  const cut = text.slice(start, start + SNIPPET_CHARS).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${cut}${start + SNIPPET_CHARS < text.length ? '…' : ''}`;
}

/** The saved index's plaintext; undefined when it fails authentication (then it is rebuilt from the logs). */
function openSaved(file: string, onDisk: Buffer): Buffer | undefined {
  try {
    return openFileFor(file, onDisk);
  } catch {
    return undefined;
  }
}

/** `loadDelayMs`: a host passes INDEX_LOAD_DELAY_MS (its first screens come first); a search loads the index at once. */
export async function createSearchService({ store, dataDir, loadDelayMs = 0 }: { store: SessionStore; dataDir: string; loadDelayMs?: number }): Promise<SearchService> {
  const file = join(dataDir, SEARCH_INDEX_FILE);
  // Encrypted with the store's key when the store is (the index holds the words of every message).
  const fs = storeFsFor(file);
  let index = MessageIndex.empty();
  // Loaded as the queue's first job, in slices: the index of a 1 GB session is millions of terms
  // and seconds of work, which must neither delay the host's start nor stall its answers to the
  // UI (issue 20: the first screen of a big session). Everything that reads the index waits for
  // the queue.
  let loadNow = (): void => undefined;
  const loadDue = new Promise<void>((resolve) => {
    loadNow = resolve;
    if (loadDelayMs <= 0) resolve();
    else setTimeout(resolve, loadDelayMs).unref();
  });
  let persistTimer: ReturnType<typeof setTimeout> | null = null;
  let dirty = false;
  let closed = false;

  const persist = async (): Promise<void> => {
    if (!dirty) return;
    dirty = false;
    await writeFileAtomic(file, index.toBytes(), { mode: 0o600, fs }).catch((error: unknown) => console.error(`baton: the search index was not saved (${(error as Error).message}); it is rebuilt at the next start`));
  };
  /**
   * Only after a change: an index that is already up to date is never rewritten. The write is the
   * whole file (tens of MB for a 1 GB session, sealed whole when the store is encrypted: seconds of
   * CPU), and a host that rewrote it after every start's syncAll did so 2 s after loading it, right
   * when the UI's first screens come (issue 20: a page reload then took 1.7 s instead of 0.6).
   */
  const schedulePersist = (): void => {
    dirty = true;
    if (persistTimer !== null || closed) return;
    persistTimer = setTimeout(() => {
      persistTimer = null;
      queue = queue.then(persist);
    }, PERSIST_DELAY_MS);
  };

  let queue: Promise<void> = (async () => {
    await loadDue;
    const onDisk = await readFile(file).catch(() => undefined);
    const saved = onDisk && openSaved(file, onDisk);
    // Stopped midway by close(): the index stays empty and unsaved (dirty is false), the file as it was.
    const loaded = saved === undefined ? undefined : await MessageIndex.fromBytesInSlices(saved, () => closed);
    index = loaded ?? MessageIndex.empty();
    // The load itself changes nothing, so the file is not written again (see schedulePersist), unless
    // it is not sealed as this store writes now: in the clear from before `baton encrypt --enable`,
    // or under an older key.
    if (loaded && !sealedAsStoreWrites(file, onDisk!)) schedulePersist();
    await rm(join(dataDir, LEGACY_INDEX_FILE), { force: true }).catch(() => undefined);
  })().catch((error: unknown) => console.error(`baton: the search index was not loaded (${(error as Error).message}); it is rebuilt from the logs`));
  /** Reads a session from the first chunk not fully indexed, page by page, and indexes whole chunks. */
  const indexSession = async (id: string): Promise<void> => {
    const upTo = index.indexedUpTo.get(id) ?? -1;
    let after = chunkOf(upTo + 1) - 1;
    let pending: MessageRecord[] = [];
    let savedAt = performance.now();
    let added = false;
    for (;;) {
      // A host that is stopping does not finish a big session first (close() waits for this queue);
      // what it read so far is kept (close() saves it).
      if (closed) break;
      if (performance.now() - savedAt > PERSIST_PROGRESS_MS) {
        dirty = true;
        await persist();
        savedAt = performance.now();
      }
      const page = await store.readMessages(id, { afterSeq: after, limit: INDEX_READ_PAGE });
      if (page.length === 0) break;
      pending.push(...page);
      after = page.at(-1)!.seq;
      // Whole chunks go in now; the last (maybe partial) chunk waits for the next page.
      const lastChunk = chunkOf(after);
      const ready = pending.filter((m) => chunkOf(m.seq) < lastChunk);
      if (ready.length > 0) index.addMessages(id, ready);
      pending = pending.filter((m) => chunkOf(m.seq) >= lastChunk);
      added = true;
      if (page.length < INDEX_READ_PAGE) break;
    }
    if (pending.length > 0) index.addMessages(id, pending);
    if (added) schedulePersist();
  };
  const enqueue = (work: () => Promise<void>): Promise<void> => {
    const next = queue.then(work).catch((error: unknown) => console.error(`baton: search indexing failed (${(error as Error).message})`));
    queue = next;
    return next;
  };
  /**
   * The first of `seqs` (the index's messages holding every term) whose text holds them: each is
   * read alone (one record), so a hit costs one short read, never its whole chunk.
   */
  const firstMatchIn = async (sessionId: string, seqs: readonly number[], terms: readonly string[]): Promise<MessageRecord | undefined> => {
    for (const seq of seqs) {
      const [message] = await store.readMessages(sessionId, { afterSeq: seq - 1, limit: 1 });
      if (message?.seq === seq && messageMatches(message, terms)) return message;
    }
    return undefined;
  };
  const rows = async () => new Map((await store.list({ includeArchived: true })).map((row) => [row.id, row]));

  return {
    syncAll: () =>
      enqueue(async () => {
        const all = await rows();
        const gone = [...index.indexedUpTo.keys()].filter((id) => !all.has(id));
        for (const id of gone) index.removeSession(id);
        if (gone.length > 0) schedulePersist();
        // A session behind the index is read and persisted by indexSession; one up to date costs nothing.
        for (const row of all.values()) {
          if (closed) return;
          if ((index.indexedUpTo.get(row.id) ?? -1) < row.messageCount - 1) await indexSession(row.id);
        }
      }),
    sessionChanged: (id) => void enqueue(() => indexSession(id)),
    async searchSessions(query, limit = SEARCH_SESSIONS_MAX) {
      const started = performance.now();
      loadNow();
      await queue;
      const all = await rows();
      const terms = MessageIndex.terms(query);
      const best = new Map<string, ChunkHit>();
      for (const hit of index.query(query)) if (!best.has(hit.sessionId) && all.has(hit.sessionId)) best.set(hit.sessionId, hit);
      // The best chunk of each of the first `limit` sessions: its messages holding every term come
      // from the index (now, before an await lets indexing change it), then are read in parallel
      // for the exact message and its snippet.
      const candidates = [...best].slice(0, limit).map(([sessionId, hit]) => [sessionId, hit.seqs()] as const);
      const found = await Promise.all(
        candidates.map(async ([sessionId, seqs]): Promise<SessionSearchHit | undefined> => {
          const row = all.get(sessionId)!;
          const message = await firstMatchIn(sessionId, seqs, terms);
          return message === undefined ? undefined : { sessionId, title: row.title, cwd: row.cwd, seq: message.seq, snippet: snippetOf(message.content, terms[0]!) };
        }),
      );
      const hits = found.filter((hit): hit is SessionSearchHit => hit !== undefined);
      return { hits, tookMs: performance.now() - started };
    },
    async searchSession(id, query) {
      loadNow();
      await enqueue(() => indexSession(id));
      const terms = MessageIndex.terms(query);
      // The index names the messages (taken now, before an await lets indexing change it); only the
      // span from a chunk's first such message to its last is read, to confirm them.
      const chunks = index
        .query(query, id)
        .sort((a, b) => a.firstSeq - b.firstSeq)
        .map((h) => h.seqs());
      const seqs: number[] = [];
      for (const wanted of chunks) {
        const want = new Set(wanted);
        const span = await store.readMessages(id, { afterSeq: wanted[0]! - 1, limit: wanted.at(-1)! - wanted[0]! + 1 });
        for (const m of span) if (want.has(m.seq) && messageMatches(m, terms)) seqs.push(m.seq);
        if (seqs.length >= SESSION_HITS_MAX) break;
      }
      return seqs.slice(0, SESSION_HITS_MAX);
    },
    async close() {
      closed = true;
      loadNow();
      if (persistTimer !== null) clearTimeout(persistTimer);
      persistTimer = null;
      await queue;
      await persist();
    },
  };
}
