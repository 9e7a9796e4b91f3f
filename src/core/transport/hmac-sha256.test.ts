// Beside the transport, not in src/shared: it checks the pure module against node:crypto, which src/shared may not import.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { equalInConstantTime, hexOf, hmacSha256, sha256 } from '../../shared/hmac-sha256.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('sha256 and hmacSha256 (the handshake proofs without node:crypto)', () => {
  it('gives the FIPS 180-4 and RFC 4231 test vectors', () => {
    expect(hexOf(sha256(bytes('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hexOf(sha256(bytes('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hexOf(sha256(bytes('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    // RFC 4231 cases 1 and 6 (a key longer than the block is hashed first).
    expect(hexOf(hmacSha256(new Uint8Array(20).fill(0x0b), bytes('Hi There')))).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
    expect(hexOf(hmacSha256(new Uint8Array(131).fill(0xaa), bytes('Test Using Larger Than Block-Size Key - Hash Key First')))).toBe(
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    );
  });

  it('matches node:crypto for keys and messages of every length around the block boundaries', () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 200]) {
      for (const messageLength of [0, 1, 32, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
        const key = randomBytes(keyLength);
        const message = randomBytes(messageLength);
        const split = Math.floor(messageLength / 3);
        expect(hexOf(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
        // Parts hash as their concatenation, as the proofs' updates do.
        expect(hexOf(hmacSha256(key, message.subarray(0, split), message.subarray(split)))).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });

  it('compares bytes of equal length only, whatever byte differs', () => {
    const proof = randomBytes(32);
    expect(equalInConstantTime(proof, Buffer.from(proof))).toBe(true);
    for (const at of [0, 15, 31]) {
      const other = Buffer.from(proof);
      other[at]! ^= 1;
      expect(equalInConstantTime(proof, other)).toBe(false);
    }
    expect(equalInConstantTime(proof, proof.subarray(0, 31))).toBe(false);
  });
});
