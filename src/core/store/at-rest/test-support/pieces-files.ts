import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NONCE_BYTES, TAG_BYTES } from '../aead.js';
import type { PieceKeys } from '../pieces-header.js';
import { PIECE_PLAIN_BYTES, piecesReader, type PiecesReader } from '../sealed-pieces.js';

/** A whole piece on disk: nonce, ciphertext, tag. */
export const SEALED_PIECE = PIECE_PLAIN_BYTES + NONCE_BYTES + TAG_BYTES;

/** `length` bytes of a pattern that differs by `seed` (so a piece of one file is not a piece of another). */
export function plainOf(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return out;
}

/** The error `open` throws; fails the test when it opens instead. */
export function refusal(open: () => unknown): NodeJS.ErrnoException {
  try {
    open();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error('opened');
}

/** `use` with a reader over `bytes` written to a real file in `dir`, read as the file named `path`. */
export function withPiecesReader<T>(dir: string, keys: PieceKeys, path: string, bytes: Buffer, use: (reader: PiecesReader) => T): T {
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return use(piecesReader(keys, path, fd, bytes.length));
  } finally {
    closeSync(fd);
  }
}
