/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one CSPRNG call serves 128 nonces,
 * which takes a measurable share off each handshake. Bytes are handed out once, never reused.
 * `fill` is the CSPRNG: the client's draws from /dev/urandom (auth.ts), the host's from node:crypto
 * (host-auth.ts).
 */
export const POOL_BYTES = 4096;

/** A `take(size)` of fresh random bytes (a copy: the pool's bytes are zeroed once taken). */
export function createRandomPool(fill: (target: Buffer) => void): (size: number) => Buffer {
  const pool = Buffer.alloc(POOL_BYTES);
  let offset = POOL_BYTES;
  return (size) => {
    if (size > POOL_BYTES) throw new RangeError(`takeRandom: at most ${POOL_BYTES} bytes at a time`);
    if (offset + size > POOL_BYTES) {
      fill(pool);
      offset = 0;
    }
    const out = Buffer.from(pool.subarray(offset, offset + size)); // a copy, not a view
    pool.fill(0, offset, offset + size);
    offset += size;
    return out;
  };
}
