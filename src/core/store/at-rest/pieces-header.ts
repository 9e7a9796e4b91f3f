import { basename } from 'node:path';
import { NONCE_BYTES, TAG_BYTES, type DataKey } from './aead.js';
import { FILE_MAGIC, KEY_ID_CHARS, undecryptable } from './at-rest-cipher.js';

/**
 * The headers of the two layouts of a file sealed in pieces, and where each piece lies. Both start
 * like the store's whole sealed files (FILE_MAGIC, key id), so whole-file readers refuse them as
 * damaged rather than read them as plaintext; a mark then says which layout follows.
 *
 * Sized (`pieces1`, sealed-pieces.ts): the plaintext length is in the header and in every piece's
 * associated data; the writer knows it before the first piece (the candidate index was written so
 * until the twenty-third sitting, and such a file still reads).
 *
 *   FILE_MAGIC · key id · "pieces1\n" · u32 piece size · u64 plaintext length · 16-byte file id · pieces
 *
 * Streamed (`stream1`, sealed-stream.ts): sealed as the bytes come, so the writer never holds the
 * whole plaintext or ciphertext (the importers' cache, a hosted listing, the candidate index). Every piece but the last
 * is full; the last (possibly empty) is sealed as the last, so a file cut at a piece boundary or
 * extended fails, as in the STREAM construction. The plaintext length follows from the file size.
 *
 *   FILE_MAGIC · key id · "stream1\n" · u32 piece size · 16-byte file id · pieces
 *
 * Each piece is nonce ‖ ciphertext ‖ tag (AES-256-GCM) over its associated data: the layout, the
 * scope (the session, or the store), the file's name, the file id, the piece size, the piece's
 * position (and, sized, the length; streamed, whether it is the last).
 */
export const PIECE_OVERHEAD = NONCE_BYTES + TAG_BYTES;
/** Largest piece a reader accepts from a header (a bigger one is damage, not a buffer to allocate). */
export const MAX_PIECE_PLAIN_BYTES = 16 * 1024 * 1024;
export const FILE_ID_BYTES = 16;

export const PIECES_MARK = Buffer.from('pieces1\n', 'latin1');
export const STREAM_MARK = Buffer.from('stream1\n', 'latin1');
const MARK_AT = FILE_MAGIC.length + KEY_ID_CHARS;
export const PIECE_SIZE_AT = MARK_AT + PIECES_MARK.length;
/** Sized layout: the plaintext length, then the file id. */
export const LENGTH_AT = PIECE_SIZE_AT + 4;
export const SIZED_FILE_ID_AT = LENGTH_AT + 8;
export const PIECES_HEADER_BYTES = SIZED_FILE_ID_AT + FILE_ID_BYTES;
/** Streamed layout: the file id right after the piece size. */
export const STREAM_FILE_ID_AT = PIECE_SIZE_AT + 4;
export const STREAM_HEADER_BYTES = STREAM_FILE_ID_AT + FILE_ID_BYTES;

/** What sealing and opening need from the store's cipher (AtRestCipher), or from a one-off key. */
export interface PieceKeys {
  readonly current: DataKey;
  keyFor(keyId: string): DataKey | undefined;
  scopeOf(path: string): string;
}

/** Keys for one key alone (a hosted listing's, made for that render), under its own scope. */
export function singleKey(key: DataKey, scope: string): PieceKeys {
  return { current: key, keyFor: (id) => (id === key.keyId ? key : undefined), scopeOf: () => scope };
}

export interface PiecesHeader {
  key: DataKey;
  pieceBytes: number;
  plainLength: number;
  count: number;
  /** Where piece 0 starts. */
  headerBytes: number;
  /** Piece `i`'s associated data. */
  aadOf(i: number): string;
}

/** Pieces of a sized plaintext of `plainLength` bytes: at least one, so even an empty file authenticates its header. */
export function pieceCount(plainLength: number, pieceBytes: number): number {
  return Math.max(1, Math.ceil(plainLength / pieceBytes));
}

export function sizedAad(scope: string, name: string, fileId: Buffer, plainLength: number, pieceBytes: number): string {
  return `baton-pieces-v1\0${scope}\0${name}\0${fileId.toString('hex')}\0${plainLength}\0${pieceBytes}\0`;
}

export function streamAad(scope: string, name: string, fileId: Buffer, pieceBytes: number, i: number, last: boolean): string {
  return `baton-stream-v1\0${scope}\0${name}\0${fileId.toString('hex')}\0${pieceBytes}\0${i}\0${last ? 'last' : 'more'}`;
}

/** Whether `bytes` (a file's first bytes) start like a file sealed in pieces, either layout. */
export function isSealedInPieces(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < PIECE_SIZE_AT || !b.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)) return false;
  const mark = b.subarray(MARK_AT, PIECE_SIZE_AT);
  return mark.equals(PIECES_MARK) || mark.equals(STREAM_MARK);
}

/** The header's fields common to both layouts: FILE_MAGIC, key id, mark, piece size. */
export function writeHeaderStart(header: Buffer, keyId: string, mark: Buffer, pieceBytes: number): void {
  FILE_MAGIC.copy(header, 0);
  header.write(keyId, FILE_MAGIC.length, 'latin1');
  mark.copy(header, MARK_AT);
  header.writeUInt32LE(pieceBytes, PIECE_SIZE_AT);
}

/**
 * The header of a file sealed in pieces (`header`: at least its first PIECES_HEADER_BYTES, or the
 * whole file when shorter), checked against the file's size; throws EBADMSG naming `path` otherwise.
 */
export function readPiecesHeader(keys: PieceKeys, path: string, header: Buffer, fileSize: number): PiecesHeader {
  if (!isSealedInPieces(header)) throw undecryptable(path, 'it is not sealed in pieces');
  const streamed = header.subarray(MARK_AT, PIECE_SIZE_AT).equals(STREAM_MARK);
  const headerBytes = streamed ? STREAM_HEADER_BYTES : PIECES_HEADER_BYTES;
  if (header.length < headerBytes) throw undecryptable(path, 'its header is cut');
  const keyId = header.toString('latin1', FILE_MAGIC.length, MARK_AT);
  const key = keys.keyFor(keyId);
  if (!key) throw undecryptable(path, `it is sealed with key ${keyId}, which this store does not hold`);
  const pieceBytes = header.readUInt32LE(PIECE_SIZE_AT);
  if (pieceBytes === 0 || pieceBytes > MAX_PIECE_PLAIN_BYTES) throw undecryptable(path, 'its header is damaged');
  const scope = keys.scopeOf(path);
  const name = basename(path);
  if (streamed) {
    const fileId = Buffer.from(header.subarray(STREAM_FILE_ID_AT, STREAM_HEADER_BYTES));
    // Every piece but the last is full; the last holds 0..pieceBytes bytes: its sealed size says how many.
    const body = fileSize - STREAM_HEADER_BYTES;
    const count = Math.max(1, Math.ceil(body / (pieceBytes + PIECE_OVERHEAD)));
    const lastSealed = body - (count - 1) * (pieceBytes + PIECE_OVERHEAD);
    if (lastSealed < PIECE_OVERHEAD) throw undecryptable(path, `it is ${fileSize} bytes, which no sealed stream is (cut)`);
    return { key, pieceBytes, plainLength: body - count * PIECE_OVERHEAD, count, headerBytes, aadOf: (i) => streamAad(scope, name, fileId, pieceBytes, i, i === count - 1) };
  }
  const length = header.readBigUInt64LE(LENGTH_AT);
  if (length > BigInt(Number.MAX_SAFE_INTEGER)) throw undecryptable(path, 'its header is damaged');
  const plainLength = Number(length);
  const count = pieceCount(plainLength, pieceBytes);
  if (fileSize !== PIECES_HEADER_BYTES + plainLength + count * PIECE_OVERHEAD) throw undecryptable(path, `it is ${fileSize} bytes, not the ${PIECES_HEADER_BYTES + plainLength + count * PIECE_OVERHEAD} its header says (cut or extended)`);
  const aad = sizedAad(scope, name, header.subarray(SIZED_FILE_ID_AT, PIECES_HEADER_BYTES), plainLength, pieceBytes);
  return { key, pieceBytes, plainLength, count, headerBytes, aadOf: (i) => aad + i };
}

/** Where piece `i` starts in the file, and its sealed length. */
export function pieceSpan(h: PiecesHeader, i: number): { at: number; sealed: number } {
  const plain = Math.min(h.pieceBytes, h.plainLength - i * h.pieceBytes);
  return { at: h.headerBytes + i * (h.pieceBytes + PIECE_OVERHEAD), sealed: Math.max(0, plain) + PIECE_OVERHEAD };
}
