import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ListFilter } from '../../core/importers/candidate-list.js';
import { LISTING_FILE_PATTERN, listingsDir, resolveDataDir, runtimeListingsDir } from '../../core/paths.js';
import { copyFdSync, readerLeft, writeAllSync } from './fd-copy.js';
import { loadOrCreateToken, readExistingTokenSync, resolveEndpoint } from '../../core/transport/endpoint.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/** A host that does not answer this fast is treated as absent: the CLI scans itself instead. */
export const HOST_CONNECT_TIMEOUT_MS = 1_000;
/** Budget of the whole listing once connected (the host may still be finishing its first scan). */
export const HOST_LIST_TIMEOUT_MS = 60_000;
/** Bytes copied per read when a rendered listing file is streamed to stdout. */
export const LISTING_COPY_CHUNK_BYTES = 1024 * 1024;

export interface HostListRequest {
  agents: boolean;
  filter: ListFilter;
  limit?: number;
}

/**
 * The host's answer: the document as text (one frame, or parts put together), a rendered file
 * already opened (its descriptor, read synchronously: a listing's process never starts the thread
 * pool for it), or a sealed one opened.
 */
export type HostListing = { text: string } | { fd: number } | { pieces: Buffer[] };

/**
 * Asks a running host (desktop or `baton serve`) for the `baton list --json` document over the
 * authenticated socket: method `candidates.list`. A document bigger than a frame comes back as
 * the path of the file the host rendered it to (in its listings folder, listing-place.ts; opened
 * here before the connection closes, so the host may replace it at once); from an older host, or if
 * that file cannot be opened, as parts requested together. Null when no host runs or it cannot
 * answer: the caller falls back to its own scan.
 */
export async function openHostListing(request: HostListRequest, dataDir = resolveDataDir()): Promise<HostListing | null> {
  const endpoint = resolveEndpoint(dataDir);
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) return null;
  let client;
  try {
    // The socket client (node:net, the wire schemas) is loaded only when a socket is there.
    const { connectEndpoint } = await import('../../core/transport/client.js');
    // Read synchronously (no thread pool in this process); made only if a host left none.
    const token = readExistingTokenSync(endpoint.tokenPath) ?? (await loadOrCreateToken(endpoint.tokenPath));
    const connecting = connectEndpoint({ endpoint, token, timeoutMs: HOST_CONNECT_TIMEOUT_MS });
    markPhase('host-connecting');
    client = await connecting;
    markPhase('host-connected'); // the handshake passed: both proofs checked
  } catch {
    return null; // a socket file left behind by a host that is gone
  }
  try {
    const params = { agents: request.agents, cwd: request.filter.cwd, source: request.filter.source, limit: request.limit, fileFirst: true };
    const first = await client.request('candidates.list', params, { timeoutMs: HOST_LIST_TIMEOUT_MS });
    if (!first.ok || typeof first.text !== 'string' || typeof first.parts !== 'number') return null;
    if (first.parts === 1) return { text: first.text };
    if (typeof first.file === 'string' && isListingFile(first.file, dataDir, endpoint.dir)) {
      if (typeof first.sealedKey === 'string') {
        // An encrypted store's listing, sealed under the key in the answer: opened whole (never
        // printed in part); when it is refused, the parts are asked for below.
        const opened = await openSealedListing(first.file, first.sealedKey).catch(() => null);
        if (opened) return { pieces: opened };
      } else {
        const fd = openedOrNull(first.file);
        if (fd !== null) return { fd };
      }
    }
    const listing = first.listing;
    // Part 0 came with the answer unless the host left it out for the file (fileFirst).
    const from = first.text === '' ? 0 : 1;
    const rest = await Promise.all(
      Array.from({ length: first.parts - from }, (_, k) => client.request('candidates.list', { listing, part: k + from }, { timeoutMs: HOST_LIST_TIMEOUT_MS })),
    );
    if (rest.some((a) => !a.ok || typeof a.text !== 'string')) return null;
    return { text: first.text + rest.map((a) => a.text as string).join('') };
  } catch {
    return null;
  } finally {
    closeSoon(client);
  }
}

/**
 * Closes the host's connection on the next turn of the event loop. Every answer is in by now, so
 * nothing waits on it; and node:net's destroy compares the socket with `process.stderr`, which
 * builds the stderr stream (a pipe's is a whole net.Socket): 2-4 ms of a hosted `baton list
 * --json`, whose launcher exits before that turn (bin/baton.js), so the kernel closes it instead.
 */
function closeSoon(client: { close(): void }): void {
  setImmediate(() => client.close());
}

/** Whether `file` is a listing in one of a host's two listings folders (the data directory's, or the endpoint's when in memory: listing-place.ts). */
function isListingFile(file: string, dataDir: string, endpointDir: string): boolean {
  return LISTING_FILE_PATTERN.test(basename(file)) && [listingsDir(dataDir), runtimeListingsDir(endpointDir)].includes(dirname(file));
}

/** The host's rendered file opened for reading, or null when it cannot be (gone, replaced): the parts are asked for instead. */
function openedOrNull(path: string): number | null {
  try {
    return openSync(path, 'r');
  } catch {
    return null;
  }
}

/** The plaintext of the host's sealed listing file (its pieces, in order), or null when it is refused (changed, cut, another listing's, not that key's). */
async function openSealedListing(path: string, keyBase64: string): Promise<Buffer[] | null> {
  const [{ dataKeyOf }, { readSealedListing }] = await Promise.all([import('../../core/store/at-rest/aead.js'), import('../../core/store/at-rest/sealed-listing.js')]);
  const opened = readSealedListing(path, dataKeyOf(Buffer.from(keyBase64, 'base64')));
  return opened.ok ? opened.plain : null;
}

/** The host's document as one string (for people's output and tests); null without a host. */
export async function listFromHost(request: HostListRequest, dataDir = resolveDataDir()): Promise<string | null> {
  const listing = await openHostListing(request, dataDir);
  if (listing === null || 'text' in listing) return listing?.text ?? null;
  // Put together before decoding: a piece may end inside a character.
  if ('pieces' in listing) return Buffer.concat(listing.pieces).toString('utf8');
  try {
    return readFileSync(listing.fd, 'utf8');
  } finally {
    closeSync(listing.fd);
  }
}

export interface ByteSink {
  write(chunk: string | Uint8Array, done?: (error?: Error | null) => void): boolean;
}

/**
 * Writes the host's answer to the descriptor `fd` with synchronous writes (the fast path's fd 1:
 * process.stdout is never created); false without a host.
 */
export async function printHostListingToFd(request: HostListRequest, fd: number, dataDir = resolveDataDir()): Promise<boolean> {
  const listing = await openHostListing(request, dataDir);
  if (listing === null) return false;
  try {
    if ('text' in listing) writeAllSync(fd, Buffer.from(listing.text, 'utf8'));
    else if ('pieces' in listing) for (const piece of listing.pieces) writeAllSync(fd, piece);
    else copyFdSync(listing.fd, fd);
  } catch (error) {
    // A reader that stopped reading (`| head`) has what it wanted: not an error of the listing.
    if (!readerLeft(error)) throw error;
  } finally {
    if ('fd' in listing) closeSync(listing.fd);
  }
  return true;
}

/** Writes the host's answer to `out` as it is read (a 6 MB listing is never one string here); false without a host. */
export async function printHostListing(request: HostListRequest, out: ByteSink, dataDir = resolveDataDir()): Promise<boolean> {
  const listing = await openHostListing(request, dataDir);
  if (listing === null) return false;
  const write = (chunk: string | Uint8Array) => new Promise<void>((done, fail) => void out.write(chunk, (error) => (error ? fail(error) : done())));
  if ('text' in listing) {
    await write(listing.text);
    return true;
  }
  if ('pieces' in listing) {
    for (const piece of listing.pieces) await write(piece);
    return true;
  }
  try {
    for (let position = 0; ; ) {
      // A fresh buffer per chunk: the sink may hold it until written.
      const buffer = Buffer.allocUnsafe(LISTING_COPY_CHUNK_BYTES);
      const bytesRead = readSync(listing.fd, buffer, 0, LISTING_COPY_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      await write(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    closeSync(listing.fd);
  }
  return true;
}
