import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataKey } from './aead.js';
import { AtRestCipher, FILE_MAGIC } from './at-rest-cipher.js';
import { STREAM_HEADER_BYTES } from './pieces-header.js';
import { PIECE_PLAIN_BYTES, openPieces, type PiecesReader } from './sealed-pieces.js';
import { StreamSealer } from './sealed-stream.js';
import { plainOf, refusal, SEALED_PIECE, withPiecesReader } from './test-support/pieces-files.js';

/**
 * Files sealed in pieces as their bytes come (the importers' cache, a hosted listing): read back
 * byte for byte whatever the writer's chunks; a piece moved, dropped (the last one included, at a
 * piece boundary), flipped, copied from another file or version, a file extended, renamed or under
 * another key is refused with an error naming the path.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-sealed-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cipher = new AtRestCipher('/data', newDataKey());
const PATH = '/data/importers-cache.json';

/** `plain` added in chunks of the given lengths (the last takes the rest), sealed for `path`. */
function sealed(plain: Buffer, cuts: number[] = [], path = PATH, keys = cipher): Buffer {
  const sealer = new StreamSealer(keys, path);
  const out = [sealer.header];
  let at = 0;
  for (const n of [...cuts, plain.length]) {
    const to = Math.min(plain.length, at + n);
    out.push(...sealer.add(plain.subarray(at, to)));
    at = to;
  }
  out.push(sealer.end());
  return Buffer.concat(out);
}

/** A reader over `bytes` written to a real file, read as the file named `path`. */
function withReader<T>(bytes: Buffer, use: (reader: PiecesReader) => T, path = PATH): T {
  return withPiecesReader(dir, cipher, path, bytes, use);
}

describe('a file sealed in pieces as it streams', () => {
  it('opens whole and reads any range byte for byte, however the writer cut its bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 5 * PIECE_PLAIN_BYTES + 3 }), fc.constantFrom(0, 1, PIECE_PLAIN_BYTES, 2 * PIECE_PLAIN_BYTES, 3 * PIECE_PLAIN_BYTES - 1, 3 * PIECE_PLAIN_BYTES + 1)),
        fc.array(fc.integer({ min: 0, max: 2 * PIECE_PLAIN_BYTES }), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 * PIECE_PLAIN_BYTES })), { minLength: 1, maxLength: 8 }),
        (length, cuts, ranges) => {
          const plain = plainOf(length, length);
          const bytes = sealed(plain, cuts);
          expect(bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)).toBe(true);
          expect(openPieces(cipher, PATH, bytes).equals(plain)).toBe(true);
          withReader(bytes, (reader) => {
            expect(reader.size).toBe(length);
            expect(reader.read(0, length).equals(plain)).toBe(true);
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

  it('with its first piece held, seals that piece last: patched, it opens as the stream with the patch, however long', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 8, max: 4 * PIECE_PLAIN_BYTES + 3 }), fc.constantFrom(8, PIECE_PLAIN_BYTES - 1, PIECE_PLAIN_BYTES, PIECE_PLAIN_BYTES + 1, 2 * PIECE_PLAIN_BYTES)),
        fc.array(fc.integer({ min: 0, max: 2 * PIECE_PLAIN_BYTES }), { maxLength: 5 }),
        fc.nat({ max: 6 }),
        (length, cuts, at) => {
          const plain = plainOf(length, length + 1);
          const patch = Buffer.from([0xde, 0xad]);
          const sealer = new StreamSealer(cipher, PATH, PIECE_PLAIN_BYTES, { holdFirst: true });
          const out = [sealer.header];
          let from = 0;
          for (const n of [...cuts, length]) {
            const to = Math.min(length, from + n);
            out.push(...sealer.add(plain.subarray(from, to)));
            from = to;
          }
          const bytes = Buffer.concat(out);
          const first = sealer.sealFirst(patch, at);
          // Past one piece, zeros hold the first piece's place until it is sealed; within one, nothing is sealed yet.
          expect(first === null).toBe(length <= PIECE_PLAIN_BYTES);
          if (first) {
            expect(first.position).toBe(STREAM_HEADER_BYTES);
            expect(bytes.subarray(first.position, first.position + first.sealed.length).equals(Buffer.alloc(first.sealed.length))).toBe(true);
            first.sealed.copy(bytes, first.position);
          }
          const file = Buffer.concat([bytes, sealer.end()]);
          const expected = Buffer.from(plain);
          patch.copy(expected, at);
          expect(openPieces(cipher, PATH, file).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('with its first piece held, refuses to end before sealing it, a patch outside it, and a second seal', () => {
    const sealer = new StreamSealer(cipher, PATH, PIECE_PLAIN_BYTES, { holdFirst: true });
    sealer.add(plainOf(2 * PIECE_PLAIN_BYTES + 5, 3));
    expect(() => sealer.end()).toThrow(/before its first piece was sealed/);
    expect(() => sealer.sealFirst(Buffer.alloc(2), PIECE_PLAIN_BYTES - 1)).toThrow(/not within the first piece/);
    expect(sealer.sealFirst(Buffer.alloc(2), 0)).not.toBeNull();
    expect(() => sealer.sealFirst(Buffer.alloc(2), 0)).toThrow(/no first piece is held/);
    const short = new StreamSealer(cipher, PATH, PIECE_PLAIN_BYTES, { holdFirst: true });
    short.add(Buffer.from('abc'));
    expect(() => short.sealFirst(Buffer.alloc(2), 2)).toThrow(/past the end/);
    expect(() => new StreamSealer(cipher, PATH).sealFirst(Buffer.alloc(1), 0)).toThrow(/no first piece is held/);
  });

  it('gives each piece as its nonce, ciphertext and tag apart, not concatenated once more', () => {
    const sealer = new StreamSealer(cipher, PATH);
    const parts = sealer.add(plainOf(2 * PIECE_PLAIN_BYTES + 1, 4));
    expect(parts.filter((p) => p.length > 0).map((p) => p.length)).toEqual([12, PIECE_PLAIN_BYTES, 16, 12, PIECE_PLAIN_BYTES, 16]);
  });

  it('holds no plaintext byte run of its content, and takes no bytes after its end', () => {
    const plain = Buffer.from('secret title of a session '.repeat(10_000));
    expect(sealed(plain, [1000, 70_000]).includes(Buffer.from('secret title'))).toBe(false);
    const sealer = new StreamSealer(cipher, PATH);
    sealer.end();
    expect(() => sealer.add(Buffer.from('x'))).toThrow(/after the end/);
    expect(() => sealer.end()).toThrow(/ended twice/);
  });

  it('refuses pieces reordered, dropped at a piece boundary, flipped, extended, or from another file, version or key, naming the path', () => {
    const at = (i: number) => STREAM_HEADER_BYTES + i * SEALED_PIECE;
    const plain = plainOf(4 * PIECE_PLAIN_BYTES + 100, 1);
    const bytes = sealed(plain);
    // Exactly four full pieces: the last is full, and dropping it leaves three full pieces.
    const exact = sealed(plainOf(4 * PIECE_PLAIN_BYTES, 2));
    const swapped = Buffer.concat([bytes.subarray(0, at(1)), bytes.subarray(at(2), at(3)), bytes.subarray(at(1), at(2)), bytes.subarray(at(3))]);
    const flipped = Buffer.from(bytes);
    flipped[at(2) + 40]! ^= 1;
    const otherVersion = sealed(plain);
    const otherFile = sealed(plain, [], '/data/importers-candidates.idx');
    const variants: Array<[string, Buffer]> = [
      ['two pieces swapped', swapped],
      ['the last piece dropped', bytes.subarray(0, at(4))],
      ['the last full piece dropped', exact.subarray(0, at(3))],
      ['the last piece cut', bytes.subarray(0, bytes.length - 1)],
      ['extended by a byte', Buffer.concat([bytes, Buffer.from([0])])],
      ['extended by another file\'s last piece', Buffer.concat([exact, otherFile.subarray(at(4))])],
      ['a bit flipped in a piece', flipped],
      ['a piece of another version of the file', Buffer.concat([bytes.subarray(0, at(1)), otherVersion.subarray(at(1), at(2)), bytes.subarray(at(2))])],
      ['a piece of another file', Buffer.concat([bytes.subarray(0, at(1)), otherFile.subarray(at(1), at(2)), bytes.subarray(at(2))])],
      ['another file', otherFile],
      ['another key', sealed(plain, [], PATH, new AtRestCipher('/data', newDataKey()))],
      ['only its header', bytes.subarray(0, STREAM_HEADER_BYTES)],
      // A count that matches a shorter document: cut after a whole piece (or to the header), with a
      // last piece's worth of bytes (an empty piece's 28) added back.
      ['cut after piece 2, 28 bytes added', Buffer.concat([bytes.subarray(0, at(3)), Buffer.alloc(SEALED_PIECE - PIECE_PLAIN_BYTES)])],
      ['cut after piece 2, its last piece added', Buffer.concat([bytes.subarray(0, at(3)), bytes.subarray(at(4))])],
      ['its header, 28 bytes added', Buffer.concat([bytes.subarray(0, STREAM_HEADER_BYTES), Buffer.alloc(SEALED_PIECE - PIECE_PLAIN_BYTES)])],
      ['the store\'s whole-file seal', cipher.sealFile(PATH, plain)],
    ];
    for (const [what, variant] of variants) {
      const whole = refusal(() => openPieces(cipher, PATH, variant));
      expect([what, whole.code, whole.message.includes(PATH)]).toEqual([what, 'EBADMSG', true]);
      const partial = refusal(() => withReader(variant, (reader) => reader.read(0, variant.length)));
      expect([what, partial.code, partial.message.includes(PATH)]).toEqual([what, 'EBADMSG', true]);
    }
    expect(refusal(() => openPieces(cipher, '/data/other.json', bytes)).code).toBe('EBADMSG');
  });
});
