import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { openBytes, sealBytes, type DataKey } from './aead.js';
import { FILE_MAGIC, isSealedFile, KEY_ID_CHARS } from './at-rest-cipher.js';
import { isSealedInPieces, PIECES_HEADER_BYTES, singleKey } from './pieces-header.js';
import { openPieces, piecesReader, type PiecesReader } from './sealed-pieces.js';
import { StreamSealer } from './sealed-stream.js';

/**
 * The hosted `baton list --json` document of an encrypted store, as a file (issue 17): the host's
 * plain listing file (listing-file.ts) would hold every candidate's title in the clear, so an
 * encrypted host seals the document as it renders it, in pieces (the streamed layout of
 * pieces-header.ts, scope LISTING_SCOPE), under a key made for that one render. The key goes to
 * the CLI in the socket answer and is never written; the CLI opens the file with it instead of
 * asking for ~35 socket parts of 256 KB, and prints nothing unless every piece opens.
 *
 * The associated data names the purpose and the file's name (the host names a listing by a hash of
 * the request it answers), so neither another sealed file of the store nor the listing of another
 * request (say `--limit 50` for the whole list) opens as this one. The CLI still opens a listing
 * sealed whole (sealListing), as a host of the release before wrote it.
 */
const HEADER_BYTES = FILE_MAGIC.length + KEY_ID_CHARS;
const LISTING_SCOPE = 'baton-listing-v1';

/** The sealer of the listing file `path` under a render's own key (listing-file.ts writes through it). */
export function listingSealer(key: DataKey, path: string): StreamSealer {
  return new StreamSealer(singleKey(key, LISTING_SCOPE), path);
}

/** Reads of the plaintext of the listing file `path` open as `fd` (`size` bytes), sealed by listingSealer. */
export function sealedListingReader(key: DataKey, path: string, fd: number, size: number): PiecesReader {
  return piecesReader(singleKey(key, LISTING_SCOPE), path, fd, size);
}

/** Largest sealed listing the CLI reads whole (100,000 candidates render to ~29 MB). */
export const MAX_SEALED_LISTING_BYTES = 512 * 1024 * 1024;

function listingAad(name: string): string {
  return `baton-listing-v1\0${name}`;
}

/** A listing sealed whole, the layout a host of the release before wrote (readSealedListing still opens it). */
export function sealListing(key: DataKey, name: string, plain: Uint8Array): Buffer {
  return Buffer.concat([FILE_MAGIC, Buffer.from(key.keyId, 'latin1'), sealBytes(key, plain, listingAad(name))]);
}

/** An opened listing's plaintext as the buffers it came in (its pieces, in order), or why it is refused. */
export type OpenedListing = { ok: true; plain: Buffer[] } | { ok: false; reason: string };

/** The document of a sealed listing named `name`, or why it is refused (not sealed, another key, changed, truncated, another file's). */
export function openListing(key: DataKey, name: string, bytes: Buffer): OpenedListing {
  if (isSealedInPieces(bytes)) return openedInPieces(() => [openPieces(singleKey(key, LISTING_SCOPE), name, bytes)]);
  if (!isSealedFile(bytes) || bytes.length < HEADER_BYTES) return { ok: false, reason: `${name} is not a sealed listing` };
  const keyId = bytes.subarray(FILE_MAGIC.length, HEADER_BYTES).toString('latin1');
  if (keyId !== key.keyId) return { ok: false, reason: `${name} is sealed with key ${keyId}, not the store's key ${key.keyId}` };
  const plain = openBytes(key, bytes.subarray(HEADER_BYTES), listingAad(name));
  return plain ? { ok: true, plain: [plain] } : { ok: false, reason: `${name} failed authentication (changed, truncated or not this listing)` };
}

/**
 * Reads and opens the sealed listing at `path`; refused (never partial text) when it does not open.
 * Synchronous: its one reader is a CLI printing one file, which would otherwise load node:fs/promises
 * and start the thread pool for it (part of a hosted listing's cost with encryption on, issue 17).
 */
export function readSealedListing(path: string, key: DataKey): OpenedListing {
  const name = basename(path);
  let bytes: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      const { size } = fstatSync(fd);
      if (size > MAX_SEALED_LISTING_BYTES) return { ok: false, reason: `${path} is ${size} bytes, over MAX_SEALED_LISTING_BYTES (${MAX_SEALED_LISTING_BYTES})` };
      const start = Buffer.alloc(Math.min(size, PIECES_HEADER_BYTES));
      readSync(fd, start, 0, start.length, 0);
      // In pieces: every piece opened (authenticated) before any of it is printed, and kept as it
      // was opened (copied into one buffer of the whole, it cost a fifth of the CLI's opening).
      if (isSealedInPieces(start)) return openedInPieces(() => sealedListingReader(key, path, fd, size).pieces());
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, reason: `${path} could not be read: ${(error as Error).message}` };
  }
  return openListing(key, name, bytes);
}

function openedInPieces(read: () => Buffer[]): OpenedListing {
  try {
    return { ok: true, plain: read() };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
