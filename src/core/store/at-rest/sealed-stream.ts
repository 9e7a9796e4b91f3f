import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { sealBytes } from './aead.js';
import { FILE_ID_BYTES, STREAM_FILE_ID_AT, STREAM_HEADER_BYTES, STREAM_MARK, streamAad, writeHeaderStart, type PieceKeys } from './pieces-header.js';
import { PIECE_PLAIN_BYTES } from './sealed-pieces.js';

/**
 * A file sealed in pieces as its bytes come (the streamed layout of pieces-header.ts), for writers
 * that do not know the length before the end: the importers' cache (80 MB at 100,000 sessions) and
 * a hosted listing (28 MB). Sealed whole, each was gathered, copied once more to be sealed and
 * once more with its header: three copies alive at once in the host (bench/README.md, issue 17).
 * Here the writer holds one piece of plaintext and the pieces it has just sealed. Read back with
 * piecesReader / openPieces (sealed-pieces.ts), which accept both layouts.
 *
 * A full piece is sealed only when more bytes follow it: the last piece must be sealed as the last,
 * and only end() knows which one that is.
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

  /** `path`: the name the file will have (a temp file renamed over it keeps the associated data right). */
  constructor(
    private readonly keys: PieceKeys,
    path: string,
    private readonly pieceBytes = PIECE_PLAIN_BYTES,
  ) {
    this.header = Buffer.alloc(STREAM_HEADER_BYTES);
    writeHeaderStart(this.header, keys.current.keyId, STREAM_MARK, pieceBytes);
    this.fileId.copy(this.header, STREAM_FILE_ID_AT);
    this.piece = Buffer.allocUnsafe(pieceBytes);
    this.scope = keys.scopeOf(path);
    this.name = basename(path);
  }

  /** The pieces `bytes` completes, sealed, in file order (none while the current piece is not full). */
  add(bytes: Uint8Array): Buffer[] {
    if (this.ended) throw new Error(`${this.name}: bytes added after the end of a sealed stream`);
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      if (this.filled === this.pieceBytes) out.push(this.seal(false));
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
    this.ended = true;
    return this.seal(true);
  }

  private seal(last: boolean): Buffer {
    const sealed = sealBytes(this.keys.current, this.piece.subarray(0, this.filled), streamAad(this.scope, this.name, this.fileId, this.pieceBytes, this.index++, last));
    this.filled = 0;
    return sealed;
  }
}
