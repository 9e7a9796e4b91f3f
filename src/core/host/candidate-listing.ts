import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_FRAME_BYTES } from '../../shared/wire.js';
import type { IndexRow } from '../../shared/session.js';
import { countItems, groupItems, itemOfEntry, itemOfRow, limitGroups, type ListFilter, type ListItem } from '../importers/candidate-list.js';
import { writeListJson, type JsonSink } from '../importers/list-json.js';
import { writeListingFile as renderToFile } from './listing-file.js';
import { newDataKey, type DataKey } from '../store/at-rest/aead.js';
import type { IndexEntry } from '../importers/candidate-index.js';
import type { RequestHandler } from '../transport/types.js';
import { IMPORTED_ID_PREFIX, importedSessionId } from '../handoff/import-agent-session.js';
import type { AgentCandidates } from './agent-candidates.js';

/** Characters of the listing per answer: with JSON escaping the frame stays under MAX_FRAME_BYTES. */
export const LISTING_PART_CHARS = 160 * 1024;
/** A rendered listing is kept this long for its remaining parts to be fetched. */
export const LISTING_TTL_MS = 30_000;
/** Listings kept at once (one per CLI call in flight). */
export const MAX_OPEN_LISTINGS = 16;
/** Rendered listings kept for reuse while nothing changed (one per distinct filter/limit asked). */
export const RENDER_CACHE_SIZE = 4;

export interface ListingRequest {
  agents: boolean;
  filter: ListFilter;
  limit?: number;
}

/** `baton list --json`'s document for this state, exactly as the CLI's own scan would print it. */
export async function renderListing(rows: readonly IndexRow[], entries: readonly IndexEntry[], request: ListingRequest, scan: { files: number; ms: number } | null, cliVersion: number): Promise<string> {
  const chunks: string[] = [];
  const sink = { write: (c: Buffer) => chunks.push(c.toString('utf8')) > 0, once: () => undefined };
  await renderListingTo(sink, rows, entries, request, scan, cliVersion);
  return chunks.join('');
}

/** renderListing, written to `sink` chunk by chunk (a listing file: never one 29 MB string at 100,000). */
export async function renderListingTo(sink: JsonSink, rows: readonly IndexRow[], entries: readonly IndexEntry[], request: ListingRequest, scan: { files: number; ms: number } | null, cliVersion: number): Promise<void> {
  const ids = new Set(rows.map((r) => r.id));
  const imported = [...ids].some((id) => id.startsWith(IMPORTED_ID_PREFIX));
  // Archived rows only mark their candidates as imported; they are not resume candidates themselves.
  const items: ListItem[] = rows.filter((r) => !r.archived).map(itemOfRow);
  if (request.agents) for (const e of entries) if (!imported || !ids.has(importedSessionId(e.candidate().fingerprint))) items.push(itemOfEntry(e));
  const all = groupItems(items, request.filter);
  const total = countItems(all);
  const groups = request.limit !== undefined ? limitGroups(all, request.limit) : all;
  // Sorted, as the CLI's own listing prints them (list-groups.ts): the resident set's order is the order changes arrived in.
  const notes = request.agents ? entries.filter((e) => e.note).map((e) => `${e.path}: ${e.note}`).sort() : [];
  await writeListJson(sink, { version: cliVersion, command: 'list', ok: true }, groups, { total, shown: countItems(groups), notes, agentScan: request.agents ? { ...scan, host: true } : null });
}

/** Cuts a text into parts whose JSON-encoded form fits a frame (control characters escape to 6 bytes). */
export function splitForFrames(text: string, partChars = LISTING_PART_CHARS): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + partChars);
    while (end - at > 1 && Buffer.byteLength(JSON.stringify(text.slice(at, end))) > MAX_FRAME_BYTES - 4096) end = at + Math.floor((end - at) / 2);
    // Never split a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length > 0 ? parts : [''];
}

/**
 * A rendered listing: its parts in memory (one frame, or no listing folder) or in a file read back
 * by part; `sealedWith` when the file is an encrypted store's, sealed under that render's key.
 */
interface Render {
  count: number;
  first: string;
  part(k: number): Promise<string | null>;
  file?: { path: string; close(): Promise<void> };
  sealedWith?: DataKey;
}

function inMemory(parts: string[]): Render {
  return { count: parts.length, first: parts[0] ?? '', part: async (k) => parts[k] ?? null };
}

const closers = new WeakMap<Record<string, RequestHandler>, () => Promise<void>>();
/** Each methods object's emptying of the folders earlier hosts left listings in (startCandidateListings). */
const starters = new WeakMap<Record<string, RequestHandler>, () => Promise<void>>();

function filterOf(params: Record<string, unknown>): ListingRequest | null {
  const { agents, cwd, source, limit } = params;
  if (agents !== undefined && typeof agents !== 'boolean') return null;
  if (cwd !== undefined && typeof cwd !== 'string') return null;
  if (source !== undefined && source !== 'claude' && source !== 'codex' && source !== 'baton') return null;
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) return null;
  return { agents: agents !== false, filter: { cwd: cwd as string | undefined, source: source as string | undefined }, ...(limit !== undefined ? { limit: limit as number } : {}) };
}

/**
 * Socket methods for the CLI: `candidates.list` renders the listing from the resident candidates
 * and answers its first part (a listing of 20,000 sessions is ~6 MB, frames are 256 KB); the CLI
 * asks for the other parts by number, all at once. `candidates.health` is what `baton doctor` shows.
 */
export function createCandidateMethods(deps: {
  candidates: AgentCandidates;
  listRows: () => Promise<IndexRow[]>;
  cliVersion: number;
  /**
   * Where a listing bigger than one frame is also written whole (a 0700 folder of the data dir or
   * of the endpoint's, listing-place.ts): the CLI copies that file to stdout instead of asking for ~35 parts, each
   * JSON-escaped by the host and parsed by the CLI (most of a hosted `baton list --json` at 20,000).
   */
  listingDir?: string;
  /**
   * The store is encrypted at rest: a listing file is sealed (sealed-listing.ts) with a key made
   * for that render alone, which only this host's memory and its socket answer hold.
   */
  sealListings?: boolean;
  /**
   * Folders an earlier host of this data directory may have left listings in (both placements of
   * listing-place.ts): emptied, with listingDir, before this host writes its first listing, or
   * at startCandidateListings once it holds the socket, whichever comes first.
   */
  staleListingDirs?: readonly string[];
}): Record<string, RequestHandler> {
  const methods: Record<string, RequestHandler> = {};
  const listings = new Map<string, { render: Render; timer: NodeJS.Timeout }>();
  /**
   * The last renders, by what they depend on: the candidates' version, Baton's rows and the
   * request. A second `baton list` with nothing changed copies parts instead of grouping 20,000
   * candidates again.
   */
  const rendered = new Map<string, Render>();
  let dirReady: Promise<void> | null = null;
  const listingPath = (dir: string, key: string, extension: string): string => join(dir, `listing-${createHash('sha256').update(key).digest('hex').slice(0, 32)}.${extension}`);
  // Files left by an earlier host are stale (one killed may have left an encrypted store's in the
  // clear, in memory): start from empty folders.
  const readyDirs = (): Promise<void> =>
    (dirReady ??= (async () => {
      for (const stale of new Set([...(deps.staleListingDirs ?? []), ...(deps.listingDir ? [deps.listingDir] : [])])) await rm(stale, { recursive: true, force: true });
      if (deps.listingDir) await mkdir(deps.listingDir, { recursive: true, mode: 0o700 });
    })());
  starters.set(methods, () => readyDirs().catch(() => undefined)); // a folder that cannot be emptied fails the first render's file, which then renders in memory
  /** Set at close: a render that finishes after it removes its own file instead of keeping it. */
  let closed = false;
  const rendering = new Set<Promise<unknown>>();
  /**
   * A listing rendered into a file in listingDir; undefined when there is none or it cannot be
   * written (then in memory). An encrypted store's is sealed as it is written (listing-file.ts)
   * under a key made for this render: the key goes to the CLI in the socket answer, the channel
   * that carries the listing's text as parts anyway, and is never written, so on disk there is
   * only ciphertext whose key is gone when this host forgets the render. The CLI needs no keychain
   * read (a native binding and a D-Bus round trip per `baton list`), and a passphrase store's CLI,
   * which holds no key, reads the file too. Its parts are read back through the pieces.
   */
  const renderFile = (key: string, render: (sink: JsonSink) => Promise<void>): Promise<Render | undefined> => {
    const work = renderFileOnce(key, render);
    rendering.add(work);
    return work.finally(() => rendering.delete(work));
  };
  const renderFileOnce = async (key: string, render: (sink: JsonSink) => Promise<void>): Promise<Render | undefined> => {
    const dir = deps.listingDir;
    if (!dir || closed) return undefined;
    const sealedWith = deps.sealListings ? newDataKey() : undefined;
    let file: Awaited<ReturnType<typeof renderToFile>>;
    try {
      await readyDirs();
      file = await renderToFile(listingPath(dir, key, sealedWith ? 'sealed' : 'json'), render, undefined, sealedWith);
    } catch {
      return undefined;
    }
    if (closed) {
      // The host stopped while this rendered: nothing keeps the file, so nothing may be left of it.
      await file.close().finally(() => rm(file.path, { force: true })).catch(() => undefined);
      return undefined;
    }
    const first = (await file.part(0)) ?? '';
    if (file.starts.length > 1) return { count: file.starts.length, first, part: (k) => file.part(k), file, ...(sealedWith ? { sealedWith } : {}) };
    // One frame's worth: answered in the frame, no file to keep open.
    await file.close();
    await rm(file.path, { force: true });
    return inMemory([first]);
  };
  const drop = (render: Render): void => {
    // A CLI that already opened the file keeps reading it; parts of it are no longer answered.
    if (render.file) void render.file.close().then(() => rm(render.file!.path, { force: true })).catch(() => undefined);
  };
  closers.set(methods, async () => {
    closed = true;
    await Promise.allSettled(rendering);
    // A listing in the clear is removed as well as closed: an encrypted store's, in the endpoint's
    // directory (listing-place.ts), must not outlive the host (a CLI still copying one keeps
    // reading it). A sealed one is left for the walk of what is on disk to find sealed: its key
    // went with this host, and the next host empties the folder.
    for (const render of rendered.values()) {
      const file = render.file;
      if (!file) continue;
      await file.close().finally(() => (render.sealedWith ? undefined : rm(file.path, { force: true }))).catch(() => undefined);
    }
    rendered.clear();
  });
  const keep = (render: Render): string => {
    if (listings.size >= MAX_OPEN_LISTINGS) {
      const [oldest] = listings.keys();
      if (oldest !== undefined) {
        clearTimeout(listings.get(oldest)!.timer);
        listings.delete(oldest);
      }
    }
    const id = randomUUID();
    const timer = setTimeout(() => listings.delete(id), LISTING_TTL_MS);
    timer.unref();
    listings.set(id, { render, timer });
    return id;
  };
  Object.assign(methods, {
    'candidates.list': async (request) => {
      const params = (request.params ?? {}) as Record<string, unknown>;
      if (typeof params.listing === 'string') {
        const listing = listings.get(params.listing);
        const part = params.part;
        if (!listing) return { ok: false, code: 'NOT_FOUND', message: 'That listing expired; ask again.' };
        const { count } = listing.render;
        if (typeof part !== 'number' || !Number.isInteger(part) || part < 0 || part >= count) return { ok: false, code: 'BAD_REQUEST', message: `part must be 0..${count - 1}` };
        const text = await listing.render.part(part);
        if (text === null) return { ok: false, code: 'NOT_FOUND', message: 'That listing expired; ask again.' };
        return { ok: true, text };
      }
      const listingRequest = filterOf(params);
      if (!listingRequest) return { ok: false, code: 'BAD_REQUEST', message: 'candidates.list takes { agents?: boolean, cwd?: string, source?: "claude"|"codex"|"baton", limit?: integer }' };
      await deps.candidates.current();
      const rows = await deps.listRows();
      const key = `${deps.candidates.version()}|${JSON.stringify(listingRequest)}|${rows.map((r) => `${r.id}@${r.updatedAt}@${r.holder.who}#${r.holder.epoch}@${r.messageCount}@${r.title}@${r.archived}`).join(',')}`;
      let render = rendered.get(key);
      if (!render) {
        const stats = deps.candidates.stats();
        const scan = stats ? { files: stats.files, ms: stats.ms } : null;
        const entries = deps.candidates.entries();
        render =
          (await renderFile(key, (sink) => renderListingTo(sink, rows, entries, listingRequest, scan, deps.cliVersion))) ??
          inMemory(splitForFrames(await renderListing(rows, entries, listingRequest, scan, deps.cliVersion)));
        if (rendered.size >= RENDER_CACHE_SIZE) {
          const oldest = rendered.keys().next().value!;
          drop(rendered.get(oldest)!);
          rendered.delete(oldest);
        }
        rendered.set(key, render);
      }
      const { count, first, file, sealedWith } = render;
      // A CLI that opens the file first (`fileFirst`) gets no text: the first part, JSON-escaped
      // here and parsed there, was read by no one (it can still ask for part 0, and does when a
      // sealed file is refused).
      const text = file && params.fileFirst === true ? '' : first;
      return {
        ok: true,
        parts: count,
        text,
        ...(count > 1 ? { listing: keep(render) } : {}),
        ...(file ? { file: file.path } : {}),
        ...(sealedWith ? { sealedKey: sealedWith.key.toString('base64') } : {}),
      };
    },
    'candidates.health': async () => ({ ok: true, health: deps.candidates.health() }),
  } satisfies Record<string, RequestHandler>);
  return methods;
}

/**
 * Empties the folders earlier hosts left listings in (createCandidateMethods' staleListingDirs),
 * once this host holds the socket: a second host refused it must not remove a live host's files.
 */
export async function startCandidateListings(methods: Record<string, RequestHandler>): Promise<void> {
  await starters.get(methods)?.();
}

/** Closes the listing files a host's candidate methods hold open (host shutdown), and removes those in the clear. */
export async function closeCandidateMethods(methods: Record<string, RequestHandler>): Promise<void> {
  await closers.get(methods)?.();
}
