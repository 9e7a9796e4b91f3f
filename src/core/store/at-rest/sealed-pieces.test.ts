import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataKey } from './aead.js';
import { AtRestCipher, FILE_MAGIC } from './at-rest-cipher.js';
import { PIECE_PLAIN_BYTES, PIECES_HEADER_BYTES, openPieces, sealPieces, type PiecesReader } from './sealed-pieces.js';
import { plainOf, refusal, SEALED_PIECE, withPiecesReader } from './test-support/pieces-files.js';

/**
 * Files sealed in pieces (the candidate index of an encrypted store): the whole plaintext and any
 * range of it read back byte for byte; a piece moved, dropped, flipped, copied from another file
 * or another version of the same file, or a file renamed, cut, extended or under another key, is
 * refused with an error naming the path, never read as other bytes.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-sealed-pieces-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cipher = new AtRestCipher('/data', newDataKey());
const PATH = '/data/importers-candidates.idx';

/** `plain` cut into parts of the given lengths (the last takes the rest), sealed for `path`. */
function sealed(plain: Buffer, cuts: number[] = [], path = PATH, keys = cipher): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const n of cuts) {
    parts.push(plain.subarray(at, Math.min(plain.length, at + n)));
    at = Math.min(plain.length, at + n);
  }
  parts.push(plain.subarray(at));
  return Buffer.concat([...sealPieces(keys, path, { length: plain.length, parts })]);
}

/** The sealed bytes with pieces `a` and `b` swapped (both whole pieces). */
function swapped(bytes: Buffer, a: number, b: number): Buffer {
  const out = Buffer.from(bytes);
  bytes.copy(out, PIECES_HEADER_BYTES + a * SEALED_PIECE, PIECES_HEADER_BYTES + b * SEALED_PIECE, PIECES_HEADER_BYTES + (b + 1) * SEALED_PIECE);
  bytes.copy(out, PIECES_HEADER_BYTES + b * SEALED_PIECE, PIECES_HEADER_BYTES + a * SEALED_PIECE, PIECES_HEADER_BYTES + (a + 1) * SEALED_PIECE);
  return out;
}

/** A reader over `bytes` written to a real file, read as the file named `path`. */
function withReader<T>(bytes: Buffer, use: (reader: PiecesReader) => T, path = PATH): T {
  return withPiecesReader(dir, cipher, path, bytes, use);
}

describe('a file sealed in pieces', () => {
  it('opens whole and reads any range byte for byte, however its parts were cut', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 * PIECE_PLAIN_BYTES + 3 }),
        fc.array(fc.integer({ min: 0, max: 2 * PIECE_PLAIN_BYTES }), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 * PIECE_PLAIN_BYTES })), { minLength: 1, maxLength: 8 }),
        (length, cuts, ranges) => {
          const plain = plainOf(length, length);
          const bytes = sealed(plain, cuts);
          expect(bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)).toBe(true);
          expect(openPieces(cipher, PATH, bytes).equals(plain)).toBe(true);
          withReader(bytes, (reader) => {
            expect(reader.size).toBe(length);
            const pieces = reader.pieces();
            expect(Buffer.concat(pieces).equals(plain)).toBe(true);
            expect(pieces.length).toBe(Math.max(1, Math.ceil(length / PIECE_PLAIN_BYTES)));
            for (const [from, n] of ranges) {
              const at = length === 0 ? 0 : from % (length + 1);
              expect(reader.read(at, n).equals(plain.subarray(at, at + n))).toBe(true);
            }
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses parts that do not come to the length they were sized at (the header would lie)', () => {
    const plain = plainOf(PIECE_PLAIN_BYTES + 10, 3);
    for (const length of [plain.length - 1, plain.length + 1, 0]) {
      expect(() => [...sealPieces(cipher, PATH, { length, parts: [plain] })]).toThrow(/sealing \d+ bytes, the parts came to/);
    }
    expect(Buffer.concat([...sealPieces(cipher, PATH, { length: plain.length, parts: [plain] })]).length).toBeGreaterThan(plain.length);
  });

  it('holds no plaintext byte run of its content', () => {
    const plain = Buffer.from('secret title of a session '.repeat(10_000));
    expect(sealed(plain).includes(Buffer.from('secret title'))).toBe(false);
  });

  it('refuses pieces reordered, dropped at the end, flipped, or from another file, another version or another key, naming the path', () => {
    const plain = plainOf(4 * PIECE_PLAIN_BYTES + 100, 1);
    const bytes = sealed(plain);
    const header = (b: Buffer) => b.subarray(0, PIECES_HEADER_BYTES);
    const lastPieceAt = PIECES_HEADER_BYTES + 4 * SEALED_PIECE;
    // The same file cut after its fourth piece, its header's length changed to match.
    const cut = Buffer.from(bytes.subarray(0, lastPieceAt));
    cut.writeBigUInt64LE(BigInt(4 * PIECE_PLAIN_BYTES), PIECES_HEADER_BYTES - 24);
    // Cut to its header, the length changed to 0, an empty piece's 28 bytes after it: a reader
    // that opened only the pieces a read touches would read nothing and take it as an empty file.
    const emptied = Buffer.concat([bytes.subarray(0, PIECES_HEADER_BYTES), Buffer.alloc(SEALED_PIECE - PIECE_PLAIN_BYTES)]);
    emptied.writeBigUInt64LE(0n, PIECES_HEADER_BYTES - 24);
    const flipped = Buffer.from(bytes);
    flipped[PIECES_HEADER_BYTES + 2 * SEALED_PIECE + 40]! ^= 1;
    const otherVersion = sealed(plain);
    const otherFile = sealed(plain, [], '/data/importers-cache.json');
    const otherKey = sealed(plain, [], PATH, new AtRestCipher('/data', newDataKey()));
    const variants: Array<[string, Buffer]> = [
      ['two pieces swapped', swapped(bytes, 1, 2)],
      ['the last piece dropped', bytes.subarray(0, lastPieceAt)],
      ['the last piece dropped, the header changed to match', cut],
      ['cut to its header, its length changed to 0', emptied],
      ['extended by a byte', Buffer.concat([bytes, Buffer.from([0])])],
      ['a bit flipped in a piece', flipped],
      ['a piece of another version of the file', Buffer.concat([header(bytes), otherVersion.subarray(PIECES_HEADER_BYTES, PIECES_HEADER_BYTES + SEALED_PIECE), bytes.subarray(PIECES_HEADER_BYTES + SEALED_PIECE)])],
      ['a piece of another file', Buffer.concat([header(bytes), otherFile.subarray(PIECES_HEADER_BYTES, PIECES_HEADER_BYTES + SEALED_PIECE), bytes.subarray(PIECES_HEADER_BYTES + SEALED_PIECE)])],
      ['another file', otherFile],
      ['another key', otherKey],
      ['the store\'s whole-file seal', cipher.sealFile(PATH, plain)],
    ];
    for (const [what, variant] of variants) {
      const whole = refusal(() => openPieces(cipher, PATH, variant));
      expect([what, whole.code, whole.message.includes(PATH)]).toEqual([what, 'EBADMSG', true]);
      // Read in part, the whole range fails too (the reader opens each piece it reads).
      const partial = refusal(() => withReader(variant, (reader) => reader.read(0, variant.length)));
      expect([what, partial.code, partial.message.includes(PATH)]).toEqual([what, 'EBADMSG', true]);
      // Taken as its pieces (a hosted listing's CLI), it is refused whole: no piece comes back.
      const asPieces = refusal(() => withReader(variant, (reader) => reader.pieces()));
      expect([what, asPieces.code, asPieces.message.includes(PATH)]).toEqual([what, 'EBADMSG', true]);
    }
    // A length that is not the file's fails before any read: the reader opens the last piece
    // first, which authenticates it (a piece changed in the middle fails when it is read).
    for (const variant of [bytes.subarray(0, lastPieceAt), cut, emptied]) {
      expect(refusal(() => withReader(variant, () => undefined)).code).toBe('EBADMSG');
    }
    // Renamed: the same bytes read for another name.
    expect(refusal(() => openPieces(cipher, '/data/other.idx', bytes)).code).toBe('EBADMSG');
  });

  it('opens only the pieces a read covers: a damaged piece elsewhere does not stop it', () => {
    const plain = plainOf(6 * PIECE_PLAIN_BYTES, 2);
    const bytes = sealed(plain);
    bytes[PIECES_HEADER_BYTES + 3 * SEALED_PIECE + 100]! ^= 0x80;
    withReader(bytes, (reader) => {
      expect(reader.read(10, PIECE_PLAIN_BYTES).equals(plain.subarray(10, 10 + PIECE_PLAIN_BYTES))).toBe(true);
      expect(reader.read(5 * PIECE_PLAIN_BYTES, PIECE_PLAIN_BYTES).equals(plain.subarray(5 * PIECE_PLAIN_BYTES))).toBe(true);
      expect(refusal(() => reader.read(3 * PIECE_PLAIN_BYTES + 5, 1)).message).toContain('piece 3');
    });
  });
});
