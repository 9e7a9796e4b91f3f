import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './test-support/seeded-random.js';
import { sha256Hex } from './hash.js';

/** sha256Hex keys the scan cache (fingerprints, line keys, append checks): it must match createHash byte for byte. */
describe('sha256Hex', () => {
  it('gives createHash’s digest for 600 strings and buffers: empty, ASCII, multi-byte, lone surrogates, 1 MB', () => {
    const next = seededRandom(15);
    const inputs: Array<string | Uint8Array> = ['', Buffer.alloc(0), 'a', '\u0000', '\ud800', 'é€😀', 'x'.repeat(1 << 20), Buffer.alloc(64, 7)];
    for (let k = 0; k < 600; k++) {
      const length = Math.floor(next() * (k % 10 === 0 ? 70_000 : 300));
      const codes = Array.from({ length }, () => Math.floor(next() * (next() < 0.9 ? 128 : 0x10000)));
      const text = String.fromCharCode(...codes.slice(0, 60_000));
      inputs.push(k % 2 === 0 ? text : Buffer.from(text, 'utf8'));
    }
    for (const input of inputs) expect(sha256Hex(input)).toBe(createHash('sha256').update(input).digest('hex'));
  });
});
