import { randomBytes } from 'node:crypto';
import { readSync } from 'node:fs';
import { basename } from 'node:path';
import { openBytes, sealBytes } from './aead.js';
import { undecryptable } from './at-rest-cipher.js';
import { FILE_ID_BYTES, LENGTH_AT, PIECE_OVERHEAD, PIECES_HEADER_BYTES, PIECES_MARK, pieceSpan, readPiecesHeader, SIZED_FILE_ID_AT, sizedAad, writeHeaderStart, type PieceKeys, type PiecesHeader } from './pieces-header.js';

/**
 * A whole file sealed in pieces (issue 17): the candidate index is read in part (a warm listing
 * reads its head, arrays and listing block, not its columns and extras), and sealed as one blob
 * it had to be read and deciphered whole before anything in it could be used. In pieces, a reader
 * opens only the pieces holding the bytes it reads, each authenticated on its own.
 *
 *   FILE_MAGIC · key id · PIECES_MARK · u32 plaintext bytes per piece · u64 plaintext length ·
 *   16-byte random file id · piece 0 · piece 1 · … (each nonce ‖ ciphertext ‖ tag, AES-256-GCM)
 *
 * Every piece's associated data names the purpose, the scope (the session, or the store), the
 * file's name, the file id, the plaintext length, the piece size and the piece's position: a
 * piece moved within the file, copied from another file or from another version of this one
 * (another file id) is refused, and so is a file cut or extended (its size must be the one the
 * header's length gives, and a header changed to match fails every piece). That is this sized
 * layout; the streamed one (pieces-header.ts, sealed-stream.ts) takes the length from the file's
 * size and marks the last piece as the last instead, and readers of either open the last piece
 * first (piecesReader). The header starts like
 * the store's whole sealed files (FILE_MAGIC, key id), so whole-file readers refuse it as damaged
 * rather than read it as plaintext.
 */
export const PIECE_PLAIN_BYTES = 64 * 1024;
/**
 * Pieces read from the file in one read (about 256 KB), then opened one by one. The read buffer is
 * reused from read to read, so this is also the fresh memory it touches: a warm listing of 20,000
 * candidates took ~5,500 page faults at 16 pieces (1 MB) against ~5,300 at 4 (~2 ms where a fresh
 * page costs 11 µs, bench/README.md issue 17), for 3 reads fewer.
 */
export const PIECES_PER_READ = 4;
export { MAX_PIECE_PLAIN_BYTES, PIECES_HEADER_BYTES, type PieceKeys } from './pieces-header.js';

/**
 * A file's plaintext as the parts it is made of, lazily, with its length known before the first
 * part (the header and every piece's associated data name it). A part is valid until the next
 * one is asked for (its maker may fill the same buffer again): use or copy it first.
 */
export interface SizedParts {
  length: number;
  parts: Iterable<Buffer>;
}

/**
 * The file's bytes for `path` (the name it will have: a temp file renamed over it keeps the
 * associated data right): the header, then each piece sealed as the parts fill it. Lazy, so a
 * writer holds one piece of ciphertext at a time, not a sealed copy of the whole file. Throws
 * when the parts do not come to the length they were sized at (the header would lie).
 */
export function* sealPieces(keys: PieceKeys, path: string, { length: plainLength, parts }: SizedParts): Generator<Buffer> {
  const pieceBytes = PIECE_PLAIN_BYTES;
  const fileId = randomBytes(FILE_ID_BYTES);
  const header = Buffer.alloc(PIECES_HEADER_BYTES);
  writeHeaderStart(header, keys.current.keyId, PIECES_MARK, pieceBytes);
  header.writeBigUInt64LE(BigInt(plainLength), LENGTH_AT);
  fileId.copy(header, SIZED_FILE_ID_AT);
  yield header;
  const aad = sizedAad(keys.scopeOf(path), basename(path), fileId, plainLength, pieceBytes);
  const piece = Buffer.allocUnsafe(pieceBytes);
  let filled = 0;
  let index = 0;
  let total = 0;
  for (const part of parts) {
    total += part.length;
    if (total > plainLength) break;
    for (let at = 0; at < part.length; ) {
      const take = Math.min(pieceBytes - filled, part.length - at);
      // A whole piece inside a part is sealed where it lies (no copy).
      const whole = filled === 0 && take === pieceBytes;
      if (!whole) Buffer.from(part.buffer, part.byteOffset + at, take).copy(piece, filled);
      filled += take;
      if (filled === pieceBytes) {
        yield sealBytes(keys.current, whole ? part.subarray(at, at + take) : piece, aad + index++);
        filled = 0;
      }
      at += take;
    }
  }
  if (total !== plainLength) throw new Error(`${path}: sealing ${plainLength} bytes, the parts came to ${total > plainLength ? 'more' : total}`);
  if (filled > 0 || index === 0) yield sealBytes(keys.current, piece.subarray(0, filled), aad + index);
}

function openPiece(path: string, h: PiecesHeader, i: number, sealed: Buffer): Buffer {
  const plain = openBytes(h.key, sealed, h.aadOf(i));
  if (!plain) throw undecryptable(path, `piece ${i} was changed, moved or copied from another file`);
  return plain;
}

/** The whole plaintext of a file sealed in pieces, either layout (every piece opened); throws EBADMSG naming `path` when any piece or the header fails. */
export function openPieces(keys: PieceKeys, path: string, bytes: Buffer): Buffer {
  const h = readPiecesHeader(keys, path, bytes.subarray(0, PIECES_HEADER_BYTES), bytes.length);
  const out = Buffer.allocUnsafe(h.plainLength);
  for (let i = 0; i < h.count; i++) {
    const { at, sealed } = pieceSpan(h, i);
    openPiece(path, h, i, bytes.subarray(at, at + sealed)).copy(out, i * h.pieceBytes);
  }
  return out;
}

/** Positional reads of the plaintext of an open file sealed in pieces. */
export interface PiecesReader {
  /** Plaintext bytes. */
  size: number;
  /** Bytes [at, at + length) (shorter only at the end). */
  read(at: number, length: number): Buffer;
  /** Fills `target` from plaintext offset `at` (fewer only at the end); the count filled. */
  readInto(at: number, target: Buffer): number;
  /**
   * The whole plaintext as its pieces' own buffers, in order, every piece opened: for a reader
   * that writes the file out whole (a hosted listing's CLI), which then neither allocates nor
   * fills one buffer of the whole length.
   */
  pieces(): Buffer[];
  /** Bytes [at, at + length) as views of the opened pieces, in order (shorter only at the end): nothing copied. */
  slices(at: number, length: number): Buffer[];
}

/**
 * Reads of the open file `fd` (`size` bytes) sealed in pieces, either layout: the last piece (it
 * authenticates the length) and the pieces holding the bytes asked for are read and opened. The last piece opened is kept (a layout's small reads in a row
 * share it). Throws EBADMSG naming `path` when the header or a piece read fails authentication.
 */
export function piecesReader(keys: PieceKeys, path: string, fd: number, size: number): PiecesReader {
  const header = Buffer.alloc(Math.min(size, PIECES_HEADER_BYTES));
  readFully(fd, header, 0);
  const h = readPiecesHeader(keys, path, header, size);
  let lastIndex = -1;
  let last: Buffer = Buffer.alloc(0);
  let sealedChunk: Buffer | null = null;
  /** Opens pieces first..end (exclusive), each handed to `use` with its index. */
  const openRange = (first: number, end: number, use: (i: number, plain: Buffer) => void) => {
    let i = first;
    if (i === lastIndex) use(i++, last);
    while (i < end) {
      const n = Math.min(PIECES_PER_READ, end - i);
      const from = pieceSpan(h, i).at;
      const lastSpan = pieceSpan(h, i + n - 1);
      // Never more than the file: a damaged header's piece size is not a buffer to allocate.
      sealedChunk ??= Buffer.allocUnsafe(Math.min(PIECES_PER_READ * (h.pieceBytes + PIECE_OVERHEAD), size));
      const chunk = sealedChunk.subarray(0, lastSpan.at + lastSpan.sealed - from);
      if (readFully(fd, chunk, from) !== chunk.length) throw undecryptable(path, 'it is shorter than its header says');
      for (let k = 0; k < n; k++, i++) {
        const span = pieceSpan(h, i);
        last = openPiece(path, h, i, chunk.subarray(span.at - from, span.at - from + span.sealed));
        lastIndex = i;
        use(i, last);
      }
    }
  };
  // The last piece is opened now, whatever is read later: its associated data authenticates the
  // piece count, so the plaintext length (from the header, or from the file's size in the streamed
  // layout). Without it, a file cut after a whole piece with 28 bytes added back, or cut to its
  // header, read as a shorter document whose every read piece opens.
  openRange(h.count - 1, h.count, () => undefined);
  /** Plaintext [at, at + length) as views of the opened pieces, in order. Each opened piece is a fresh buffer (openBytes): views of it stay valid. */
  const slices = (at: number, length: number): Buffer[] => {
    const out: Buffer[] = [];
    const end = Math.min(h.plainLength, at + length);
    if (at >= end) return out;
    openRange(Math.floor(at / h.pieceBytes), Math.ceil(end / h.pieceBytes), (i, plain) => {
      const pieceAt = i * h.pieceBytes;
      out.push(plain.subarray(Math.max(at, pieceAt) - pieceAt, Math.min(end, pieceAt + plain.length) - pieceAt));
    });
    return out;
  };
  const readInto = (at: number, target: Buffer): number => {
    let filled = 0;
    for (const slice of slices(at, target.length)) filled += slice.copy(target, filled);
    return filled;
  };
  return {
    size: h.plainLength,
    readInto,
    read: (at, length) => {
      const out = Buffer.allocUnsafe(Math.max(0, Math.min(length, h.plainLength - at)));
      return out.subarray(0, readInto(at, out));
    },
    slices,
    pieces: () => {
      const out: Buffer[] = [];
      // Every piece opened whole, an empty document's one empty piece too (slices would open none).
      openRange(0, h.count, (_, plain) => out.push(plain));
      return out;
    },
  };
}

/** Reads `into.length` bytes at `at` unless the file ends first; the count read. */
function readFully(fd: number, into: Buffer, at: number): number {
  let got = 0;
  while (got < into.length) {
    const n = readSync(fd, into, got, into.length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}
