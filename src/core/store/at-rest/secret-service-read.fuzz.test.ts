import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDhExchange } from './dh-exchange.js';
import { DbusWireError, encodeMessage, METHOD_RETURN, readMessage, Reader, REPLY_SERIAL, SIGNAL, type Message, type Writer } from './dbus-wire.js';
import { MAX_AUTH_LINE_BYTES, readSecretOverBus } from './secret-service-read.js';

/**
 * The keychain read's D-Bus parsing under hostile bytes (issue 17): whatever a bus sends, the read
 * parses it with bounds checks and gives up (null, and the binding answers) or answers a 32-byte
 * value; it never throws out of the process, never waits past its bus's close, and never takes a
 * length field at its word. Replies are built with the module's own encoder, so an unmutated
 * conversation is first shown to give the key.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-bus-fuzz-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const SESSION_PATH = '/org/freedesktop/secrets/session/s1';
const ITEM_PATH = '/org/freedesktop/secrets/collection/login/7';

const reply = (serial: number, replySerial: number, signature: string, write: (w: Writer) => void): Buffer =>
  encodeMessage(METHOD_RETURN, serial, [{ code: REPLY_SERIAL, type: 'u', value: replySerial }], { signature, write });

/** A bus's answers to the read's four calls (serials 1–4), the secret `key` sent under the session's key. */
function conversation(clientPublic: Buffer, key: Buffer): { first: Buffer; secret: Buffer } {
  const ours = newDhExchange();
  const aesKey = Buffer.from(hkdfSync('sha256', ours.sharedSecret(clientPublic), Buffer.alloc(0), Buffer.alloc(0), 16));
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', aesKey, iv);
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  const first = Buffer.concat([
    Buffer.from('OK 0123456789abcdef0123456789abcdef\r\n'),
    reply(1, 1, 's', (w) => w.string(':1.42')),
    encodeMessage(SIGNAL, 2, [], { signature: 's', write: (w) => w.string(':1.42') }),
    reply(3, 2, 'vo', (w) => {
      w.signature('ay');
      w.bytes(ours.publicValue);
      w.string(SESSION_PATH);
    }),
    reply(4, 3, 'aoao', (w) => {
      w.array(4, () => w.string(ITEM_PATH));
      w.array(4, () => undefined);
    }),
  ]);
  const secret = reply(5, 4, '(oayays)', (w) => {
    w.align(8);
    w.string(SESSION_PATH);
    w.bytes(iv);
    w.bytes(sealed);
    w.string('application/octet-stream');
  });
  return { first, secret };
}

/** The client's OpenSession public value, read from the calls it wrote (after its AUTH line). */
function clientPublicOf(calls: Buffer): Buffer | null {
  let rest = calls.subarray(calls.indexOf('BEGIN\r\n') + 7);
  for (let next = readMessage(rest); next !== null; next = readMessage(rest)) {
    rest = rest.subarray(next.length);
    if (next.message.signature === 'sv') {
      const body = new Reader(next.message.body);
      body.string();
      body.signature();
      return body.bytes();
    }
  }
  return null;
}

type Mutate = (stream: Buffer) => Buffer;

/**
 * A fake bus at a fresh socket: answers the first calls with `conversation`'s bytes passed through
 * `mutate`, the GetSecret call with its reply (mutated too), and closes once that is written, or
 * GIVE_UP_MS after its first answers when no GetSecret comes: a read waiting for bytes that will
 * not come ends at the close, not at its own timeout.
 */
const GIVE_UP_MS = 300;
async function fakeBus(name: string, key: Buffer, mutate: Mutate): Promise<{ address: string; server: Server }> {
  const path = join(root, name);
  const server = createServer((socket: Socket) => {
    let calls = Buffer.alloc(0);
    let secret: Buffer | null = null;
    const closeLater = () => setTimeout(() => socket.destroy(), GIVE_UP_MS);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      calls = Buffer.concat([calls, chunk]);
      if (secret === null) {
        const theirs = clientPublicOf(calls);
        if (theirs === null) return;
        const c = conversation(theirs, key);
        secret = c.secret;
        socket.write(mutate(c.first));
        closeLater();
      } else if (calls.includes('GetSecret')) {
        socket.end(mutate(secret));
      }
    });
  });
  await new Promise<void>((done) => server.listen(path, done));
  return { address: `unix:path=${path}`, server };
}

/** Mutations of a byte stream: flips, overwrites with boundary values, cuts, insertions and huge length words. */
const mutation: fc.Arbitrary<Mutate> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, bits]) => (s: Buffer) => {
    const out = Buffer.from(s);
    out[at % out.length]! ^= bits;
    return out;
  }),
  fc.tuple(fc.nat(), fc.constantFrom(0, 0x7f, 0x80, 0xff)).map(([at, v]) => (s: Buffer) => {
    const out = Buffer.from(s);
    out[at % out.length] = v;
    return out;
  }),
  fc.nat().map((at) => (s: Buffer) => s.subarray(0, at % s.length)),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 40 })).map(([at, bytes]) => (s: Buffer) => Buffer.concat([s.subarray(0, at % s.length), Buffer.from(bytes), s.subarray(at % s.length)])),
  fc.tuple(fc.nat(), fc.constantFrom(0xffffffff, 0x80000000, 0x00100000, 0x000fffff, 7)).map(([at, v]) => (s: Buffer) => {
    const out = Buffer.from(s);
    const word = (at % Math.max(1, out.length >> 2)) << 2;
    if (word + 4 <= out.length) out.writeUInt32LE(v, word);
    return out;
  }),
);

/** Parses a stream as the read does: messages in turn, each body read by the signature it claims. */
function parseAll(stream: Buffer): Message[] {
  const out: Message[] = [];
  let rest = stream;
  for (let next = readMessage(rest); next !== null; next = readMessage(rest)) {
    expect(next.length).toBeGreaterThanOrEqual(16);
    expect(next.length).toBeLessThanOrEqual(rest.length);
    rest = rest.subarray(next.length);
    out.push(next.message);
    const body = new Reader(next.message.body);
    if (next.message.signature === 'vo') {
      body.signature();
      body.bytes();
      body.string();
    } else if (next.message.signature === 'aoao') {
      body.array(4, () => body.string());
      body.array(4, () => body.string());
    } else if (next.message.signature === '(oayays)') {
      body.align(8);
      body.string();
      body.bytes();
      body.bytes();
      body.string();
    }
  }
  return out;
}

/** Only the wire's own refusal may come out of a parse. */
function parsesOrRefuses(stream: Buffer): void {
  try {
    parseAll(stream);
  } catch (error) {
    expect(error).toBeInstanceOf(DbusWireError);
  }
}

describe('the D-Bus reader under hostile bytes', () => {
  const key = randomBytes(32);
  const sample = conversation(newDhExchange().publicValue, key);
  const replies = Buffer.concat([sample.first.subarray(sample.first.indexOf('\r\n') + 2), sample.secret]);

  it('reads the unmutated replies whole: five messages, each body by its signature', () => {
    expect(parseAll(replies).map((m) => m.signature)).toEqual(['s', 's', 'vo', 'aoao', '(oayays)']);
  });

  it('random bytes: a message, more bytes needed, or a DbusWireError; never another error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.boolean(), (bytes, littleEndian) => {
        const b = Buffer.from(bytes);
        if (littleEndian && b.length > 0) b[0] = 0x6c;
        parsesOrRefuses(b);
      }),
      { numRuns: 3_000, seed: 17 },
    );
  });

  it('mutated replies (flips, boundary bytes, cuts, insertions, huge length words): parsed with bounds or refused', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        parsesOrRefuses(mutations.reduce<Buffer>((s, m) => m(s), replies));
      }),
      { numRuns: 3_000, seed: 18 },
    );
  });

  it('a length word past the read limit is refused before any byte of it is waited for', () => {
    const huge = Buffer.from(replies);
    huge.writeUInt32LE(0x7fffffff, 4); // the first message's body length
    expect(() => readMessage(huge)).toThrow(DbusWireError);
  });
});

describe('the read against a bus sending mutated replies', () => {
  it('an honest fake bus gives the key (the harness itself is right)', async () => {
    const key = randomBytes(32);
    const bus = await fakeBus('honest', key, (s) => s);
    try {
      expect(await readSecretOverBus('baton', 'data-key-1', bus.address).secret).toEqual(key);
    } finally {
      bus.server.close();
    }
  });

  it('a bus whose AUTH answer never ends its line is left at MAX_AUTH_LINE_BYTES, not held until the timeout', async () => {
    const path = join(root, 'endless');
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write(Buffer.alloc(MAX_AUTH_LINE_BYTES + 1, 0x41)); // then silence, the socket left open
    });
    await new Promise<void>((done) => server.listen(path, done));
    try {
      const started = Date.now();
      expect(await readSecretOverBus('baton', 'data-key-1', `unix:path=${path}`).secret).toBeNull();
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      server.close();
    }
  });

  it('150 mutated conversations: each ends with null or a 32-byte value once its bus closes, none throws', async () => {
    const key = randomBytes(32);
    const cases = fc.sample(fc.array(mutation, { minLength: 1, maxLength: 2 }), { numRuns: 150, seed: 19 });
    const outcomes = { key: 0, null: 0, other: 0 };
    for (const [i, mutations] of cases.entries()) {
      const bus = await fakeBus(`m${i}`, key, (s) => mutations.reduce<Buffer>((x, m) => m(x), s));
      try {
        const started = Date.now();
        const secret = await readSecretOverBus('baton', 'data-key-1', bus.address).secret;
        // Ends at the bus's close at the latest (GIVE_UP_MS after its answers), before the read's own timeout.
        expect(Date.now() - started, `case ${i}`).toBeLessThan(1_500);
        if (secret === null) outcomes.null++;
        else {
          expect(secret, `case ${i}`).toHaveLength(32);
          // A flipped IV bit flips the key's bit (CBC): the store's open refuses such a key by its id (loadKey).
          outcomes[secret.equals(key) ? 'key' : 'other']++;
        }
      } finally {
        bus.server.close();
      }
    }
    // Most mutations make the read give up; one in a part it ignores (a signal, padding) still gives the key.
    expect(outcomes.null).toBeGreaterThan(75);
    expect(outcomes.key).toBeGreaterThan(0);
  }, 120_000);
});
