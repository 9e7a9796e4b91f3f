import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire-json.js';
import { URANDOM, clientProof, fillRandom, proofMatches, serverProof, type DeviceCalls } from './auth.js';
import { expectedClientProof, hostProofMatches, hostServerProof } from './host-auth.js';
import { POOL_BYTES, createRandomPool } from './random-pool.js';

/** node:crypto's formulas, written out here as the protocol states them (src/shared/wire.ts). */
const nodeClientProof = (token: Buffer, nonce: Buffer) => createHmac('sha256', token).update(nonce).digest('hex');
const nodeServerProof = (token: Buffer, clientNonce: Buffer, serverNonce: Buffer) =>
  createHmac('sha256', token).update(SERVER_PROOF_LABEL, 'utf8').update(clientNonce).update(serverNonce).digest('hex');

describe("the client's proofs (plain JS) against node:crypto's", () => {
  it('clientProof and serverProof equal the HMAC-SHA256 formulas over random tokens and nonces, and the host accepts them', () => {
    for (let round = 0; round < 300; round++) {
      // Tokens are 32 bytes; other lengths (and nonces of any length) cover the block boundaries too.
      const token = randomBytes(round % 3 === 0 ? randomInt(0, 130) : 32);
      const nonce = randomBytes(round % 5 === 0 ? randomInt(0, 100) : NONCE_BYTES);
      const clientNonce = randomBytes(round % 7 === 0 ? randomInt(0, 100) : NONCE_BYTES);
      const [n, c] = [nonce, clientNonce].map((b) => b.toString('base64'));
      const inputs = `token ${token.toString('hex')}, server nonce ${n}, client nonce ${c}`;
      const sentByClient = clientProof(token, n!);
      expect(sentByClient, `clientProof: ${inputs}`).toBe(nodeClientProof(token, nonce));
      expect(serverProof(token, c!, n!), `serverProof: ${inputs}`).toBe(nodeServerProof(token, clientNonce, nonce));
      // The host's side (host-auth.ts, node:crypto) computes and compares the same.
      expect(hostProofMatches(sentByClient, expectedClientProof(token, n!)), `host check: ${inputs}`).toBe(true);
      expect(proofMatches(hostServerProof(token, c!, n!), serverProof(token, c!, n!)), `client check: ${inputs}`).toBe(true);
    }
  });

  it('refuses a proof one bit off, or of the wrong length, on both sides', () => {
    const token = randomBytes(32);
    const nonce = randomBytes(NONCE_BYTES).toString('base64');
    const good = clientProof(token, nonce);
    const flipped = (parseInt(good[0]!, 16) ^ 1).toString(16) + good.slice(1);
    for (const matches of [proofMatches, hostProofMatches]) {
      expect(matches(good, expectedClientProof(token, nonce))).toBe(true);
      expect(matches(flipped, good)).toBe(false);
      expect(matches(good.slice(0, 62), good)).toBe(false);
    }
  });
});

describe('fillRandom: the device, else node:crypto', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-random-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** 300 nonces (three pool refills) drawn as newNonce draws them, with `fill` as the pool's source. */
  function noncesFrom(fill: (pool: Buffer) => void): Buffer[] {
    const take = createRandomPool(fill);
    return Array.from({ length: 300 }, () => take(NONCE_BYTES));
  }

  /** Full length, never all zeros, never one twice (a constant source repeats at each refill). */
  function expectRandomNonces(nonces: Buffer[], source: string): void {
    for (const nonce of nonces) {
      expect(nonce.length, source).toBe(NONCE_BYTES);
      expect(nonce.some((byte) => byte !== 0), `${source}: a nonce of zeros`).toBe(true);
    }
    expect(new Set(nonces.map((n) => n.toString('hex'))).size, `${source}: a nonce repeated`).toBe(nonces.length);
  }

  it('draws from the kernel\'s device', () => {
    expectRandomNonces(noncesFrom((pool) => fillRandom(pool)), URANDOM);
  });

  it('falls back for a regular file, a missing path, a device that ends (/dev/null) and one of zeros (/dev/zero)', () => {
    const file = join(dir, 'constant');
    writeFileSync(file, Buffer.alloc(POOL_BYTES, 0x41));
    for (const device of [file, join(dir, 'missing'), '/dev/null', '/dev/zero']) {
      const nonces = noncesFrom((pool) => fillRandom(pool, device));
      expectRandomNonces(nonces, device);
      expect(nonces.some((n) => n.equals(Buffer.alloc(NONCE_BYTES, 0x41))), device).toBe(false);
    }
  });

  it('falls back, at once, for a FIFO with no writer (its open would block)', () => {
    // In a child: a blocking open would hang this worker past any timeout.
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const script = `const { fillRandom } = await import(${JSON.stringify(join(import.meta.dirname, 'auth.ts'))});
      const pool = Buffer.alloc(${POOL_BYTES}); fillRandom(pool, ${JSON.stringify(fifo)}); process.stdout.write(pool.toString('hex'));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.signal, `fillRandom blocked on the FIFO; stderr: ${child.stderr}`).toBeNull();
    expect(child.status, child.stderr).toBe(0);
    const pool = Buffer.from(child.stdout, 'hex');
    expect(pool.length).toBe(POOL_BYTES);
    expectRandomNonces(Array.from({ length: POOL_BYTES / NONCE_BYTES }, (_, k) => pool.subarray(k * NONCE_BYTES, (k + 1) * NONCE_BYTES)), 'FIFO');
  }, 60_000);

  it('falls back when a read fails, and never throws when the close fails after a good read', () => {
    // Neither error can be caused from outside on a real device: these calls do the real read or
    // close, then fail as EIO would.
    const eio = () => Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    const failingRead: DeviceCalls = { read: () => { throw eio(); }, close: closeSync };
    const failingClose: DeviceCalls = {
      read: (fd, into, offset, length) => readSync(fd, into, offset, length, null),
      close: (fd) => { closeSync(fd); throw eio(); },
    };
    expectRandomNonces(noncesFrom((pool) => fillRandom(pool, URANDOM, failingRead)), 'a failing read');
    expect(() => expectRandomNonces(noncesFrom((pool) => fillRandom(pool, URANDOM, failingClose)), 'a failing close')).not.toThrow();
  });
});
