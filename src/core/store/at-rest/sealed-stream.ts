import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { sealBytes, sealParts } from './aead.js';
import { FILE_ID_BYTES, PIECE_OVERHEAD, STREAM_FILE_ID_AT, STREAM_HEADER_BYTES, STREAM_MARK, streamAad, writeHeaderStart, type PieceKeys } from './pieces-header.js';
import { PIECE_PLAIN_BYTES } from './sealed-pieces.js';

/**
 * A file sealed in pieces as its bytes come (the streamed layout of pieces-header.ts), for writers
 * that do not know the length before the end: the importers' cache (80 MB at 100,000 sessions),
 * a hosted listing (28 MB) and the candidate index (holdFirst). Sealed whole, each was gathered,
 * copied once more to be sealed and once more with its header: three copies alive at once in the
 * host (bench/README.md, issue 17).
 * Here the writer holds one piece of plaintext and the pieces it has just sealed. Read back with
 * piecesReader / openPieces (sealed-pieces.ts), which accept both layouts.
 *
 * A full piece is sealed only when more bytes follow it: the last piece must be sealed as the last,
 * and only end() knows which one that is.
 *
 * `holdFirst`: the first piece is kept in the clear in memory and sealed only by sealFirst(), once
 * its bytes are final; zeros of its sealed size stand in its place meanwhile. For a file whose
 * first bytes are known last (the candidate index's prefix holds the lengths and CRC of all that
 * follows): sized instead (sealed-pieces.ts), its sections were made twice, once only to count
 * them (bench/README.md, issue 17, twenty-third sitting).
 */
export class StreamSealer {
  /** The file's first bytes: write them before the pieces. */
  readonly header: Buffer;
  private readonly piece: Buffer;
  private filled = 0;
  private index = 0;
  private ended = false;
  private readonly scope: string;
  private readonly name: string;
  private readonly fileId = randomBytes(FILE_ID_BYTES);
  /** holdFirst: the first piece, full, waiting for sealFirst (null before it fills and after it is sealed). */
  private held: Buffer | null = null;
  private holding: boolean;

  /** `path`: the name the file will have (a temp file renamed over it keeps the associated data right). */
  constructor(
    private readonly keys: PieceKeys,
    path: string,
    private readonly pieceBytes = PIECE_PLAIN_BYTES,
    options: { holdFirst?: boolean } = {},
  ) {
    this.holding = options.holdFirst === true;
    this.header = Buffer.alloc(STREAM_HEADER_BYTES);
    writeHeaderStart(this.header, keys.current.keyId, STREAM_MARK, pieceBytes);
    this.fileId.copy(this.header, STREAM_FILE_ID_AT);
    this.piece = Buffer.allocUnsafe(pieceBytes);
    this.scope = keys.scopeOf(path);
    this.name = basename(path);
  }

  /**
   * The pieces `bytes` completes, sealed, in file order (none while the current piece is not full),
   * as parts to write one after the other: each piece's nonce, ciphertext and tag apart (aead.ts
   * sealParts), not concatenated into one more copy of the piece (a third of a sealed cache write's
   * cost was copies). Write them together (fs/write-all.ts writeAllParts) or gather them.
   */
  add(bytes: Uint8Array): Buffer[] {
    if (this.ended) throw new Error(`${this.name}: bytes added after the end of a sealed stream`);
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      if (this.filled === this.pieceBytes) {
        if (this.index === 0 && this.holding) out.push(this.hold());
        else out.push(...this.sealPiece(false));
      }
      const take = Math.min(this.pieceBytes - this.filled, bytes.length - at);
      this.piece.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
    }
    return out;
  }

  /** The last piece (possibly empty), sealed as the last: the file is whole once it is written. */
  end(): Buffer {
    if (this.ended) throw new Error(`${this.name}: a sealed stream ended twice`);
    // Its place would stay zeros: a file no reader opens.
    if (this.held) throw new Error(`${this.name}: a sealed stream ended before its first piece was sealed`);
    this.ended = true;
    this.holding = false;
    return Buffer.concat(this.sealPiece(true));
  }

  /**
   * holdFirst: `bytes` written over the first piece's plaintext at `at`, and the first piece sealed
   * now, with where it goes in the file (over the zeros add() gave in its place). Null when the
   * first piece is still the one being filled (the whole file fits in it): end() seals it, patched.
   * Call it once, after the last add() and before end().
   */
  sealFirst(bytes: Uint8Array, at: number): { position: number; sealed: Buffer } | null {
    if (!this.holding || this.ended) throw new Error(`${this.name}: no first piece is held`);
    if (at < 0 || at + bytes.length > this.pieceBytes) throw new Error(`${this.name}: bytes ${at}..${at + bytes.length} are not within the first piece`);
    this.holding = false;
    if (!this.held) {
      if (at + bytes.length > this.filled) throw new Error(`${this.name}: bytes ${at}..${at + bytes.length} are past the end of the stream`);
      this.piece.set(bytes, at);
      return null;
    }
    this.held.set(bytes, at);
    const sealed = sealBytes(this.keys.current, this.held, streamAad(this.scope, this.name, this.fileId, this.pieceBytes, 0, false));
    this.held = null;
    return { position: this.header.length, sealed };
  }

  /** The first piece kept (holdFirst) and zeros of its sealed size in its place. */
  private hold(): Buffer {
    this.held = Buffer.from(this.piece);
    this.index = 1;
    this.filled = 0;
    return Buffer.alloc(this.pieceBytes + PIECE_OVERHEAD);
  }

  private sealPiece(last: boolean): Buffer[] {
    const sealed = sealParts(this.keys.current, this.piece.subarray(0, this.filled), streamAad(this.scope, this.name, this.fileId, this.pieceBytes, this.index++, last));
    this.filled = 0;
    return sealed;
  }
}
