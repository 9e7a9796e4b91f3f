import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataKeyOf, newDataKey, NONCE_BYTES, openBytes, sealBase64, sealBytes, sealedBytes, TAG_BYTES } from './aead.js';

/**
 * The read side of AES-256-GCM at rest: one decipher per record (bench/store/record-open.ts
 * measured the alternatives node:crypto allows: a KeyObject made once, WebCrypto in batches), the
 * tag always checked, the associated data binding the record to its session and seq.
 */
const AAD = 'baton-record-v1\0s-test\x000';

describe('openBytes', () => {
  it('opens what sealBytes sealed, for 500 generated records', () => {
    const key = newDataKey();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.string({ maxLength: 40 }), (plain, aad) => {
        const sealed = sealBytes(key, plain, aad);
        expect(sealed.length).toBe(NONCE_BYTES + plain.length + TAG_BYTES);
        expect(openBytes(key, sealed, aad)).toEqual(Buffer.from(plain));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses any flipped bit of nonce, ciphertext or tag (a sample of each byte), and other associated data', () => {
    const key = newDataKey();
    const sealed = sealBytes(key, Buffer.from('{"role":"user","content":"secret"}'), AAD);
    for (let at = 0; at < sealed.length; at++) {
      for (const bit of [0, 3, 7]) {
        const changed = Buffer.from(sealed);
        changed[at]! ^= 1 << bit;
        expect(openBytes(key, changed, AAD)).toBeUndefined();
      }
    }
    // Another session, another seq: the record is refused.
    for (const aad of ['baton-record-v1\0s-other\x000', 'baton-record-v1\0s-test\x001', '']) expect(openBytes(key, sealed, aad)).toBeUndefined();
    expect(openBytes(key, sealed.subarray(0, NONCE_BYTES + TAG_BYTES - 1), AAD)).toBeUndefined();
  });

  it('keeps each key its own: a record sealed under one key is refused under another, opened alternately', () => {
    const keys = Array.from({ length: 4 }, () => newDataKey());
    const sealed = keys.map((k, i) => sealBytes(k, Buffer.from(`record ${i}`), AAD));
    for (let round = 0; round < 3; round++) {
      for (const [i, k] of keys.entries()) {
        for (const [j, s] of sealed.entries()) expect(openBytes(k, s, AAD)?.toString()).toBe(i === j ? `record ${j}` : undefined);
      }
    }
    // The same key bytes in another DataKey object open it too.
    expect(openBytes(dataKeyOf(Buffer.from(keys[0]!.key)), sealed[0]!, AAD)?.toString()).toBe('record 0');
  });

  it('opens what sealBase64 sealed, small and past its kept buffer, each seal with its own nonce', () => {
    const key = newDataKey();
    const nonces = new Set<string>();
    const check = (plain: Uint8Array, aad: string) => {
      const sealed = Buffer.from(sealBase64(key, plain, aad), 'base64');
      expect(sealed.length).toBe(sealedBytes(plain.length));
      expect(openBytes(key, sealed, aad)?.equals(plain)).toBe(true);
      nonces.add(sealed.subarray(0, NONCE_BYTES).toString('hex'));
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.string({ maxLength: 40 }), check), { numRuns: 300 });
    // Around the kept buffer's size (64 KiB of sealed bytes) and well past it, then small again.
    for (const n of [64 * 1024 - NONCE_BYTES - TAG_BYTES, 64 * 1024 - NONCE_BYTES - TAG_BYTES + 1, 200_000, 5]) check(Buffer.alloc(n, n % 251), `aad ${n}`);
    expect(nonces.size).toBe(304);
  });
});
