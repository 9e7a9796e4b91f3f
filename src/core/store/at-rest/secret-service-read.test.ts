import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCRYPTION_FILE } from '../layout.js';
import { newDhExchange, toGroupSize, GROUP_BYTES } from './dh-exchange.js';
import { methodCall, readMessage, Reader, METHOD_CALL } from './dbus-wire.js';
import { KEYRING_SERVICE, osKeyStore } from './key-store.js';
import { busSocketPath, openTransferredSecret, readSecretOverBus } from './secret-service-read.js';
import { startSecretService, type SecretService } from './test-support/secret-service.js';

/**
 * Issue 17: the early keychain read of a CLI run goes over the session bus from the process itself
 * (secret-service-read.ts), not through @napi-rs/keyring, whose entry negotiated its session
 * synchronously before the first screen. The same key, or null (the caller then asks the binding).
 * Against a real Secret Service (gnome-keyring on a private D-Bus bus) and against fake buses.
 */
let service: SecretService;
let root: string;

beforeAll(async () => {
  service = await startSecretService();
  root = await mkdtemp(join(tmpdir(), 'baton-bus-read-'));
}, 60_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await service.stop();
});

const accountOf = () => `data-key-${randomBytes(8).toString('hex')}`;

/** A unix socket server at a fresh path answering each connection with `answer`. */
async function fakeBus(name: string, answer: (socket: Socket) => void): Promise<{ address: string; server: Server }> {
  const path = join(root, name);
  const server = createServer(answer);
  await new Promise<void>((done) => server.listen(path, done));
  return { address: `unix:path=${path},guid=0123`, server };
}

describe('readSecretOverBus', () => {
  it('reads the key the binding wrote, byte for byte, through an encrypted session', async () => {
    const account = accountOf();
    const key = randomBytes(32);
    await osKeyStore().write(account, key);
    const read = readSecretOverBus(KEYRING_SERVICE, account);
    await read.sent;
    expect(await read.secret).toEqual(key);
  });

  it('answers null for an account the keychain does not hold (the binding answers it), and for a secret that is not a data key', async () => {
    expect(await readSecretOverBus(KEYRING_SERVICE, accountOf()).secret).toBeNull();
    const short = accountOf();
    await osKeyStore().write(short, randomBytes(16));
    expect(await readSecretOverBus(KEYRING_SERVICE, short).secret).toBeNull();
  });

  it('answers null for an address of another form, a socket that is not there, a bus that refuses, one that answers garbage and one that never answers', async () => {
    const account = accountOf();
    await osKeyStore().write(account, randomBytes(32));
    expect(await readSecretOverBus(KEYRING_SERVICE, account, 'tcp:host=localhost,port=1').secret).toBeNull();
    expect(await readSecretOverBus(KEYRING_SERVICE, account, '').secret).toBeNull(); // no session bus
    expect(await readSecretOverBus(KEYRING_SERVICE, account, `unix:path=${join(root, 'nothing-here')}`).secret).toBeNull();
    const refusing = await fakeBus('refusing', (s) => s.end('REJECTED EXTERNAL\r\n'));
    const garbage = await fakeBus('garbage', (s) => s.write(Buffer.concat([Buffer.from('OK 0123\r\n'), Buffer.from('B\u0002\u0001\u0001'), randomBytes(64)])));
    const silent = await fakeBus('silent', () => undefined);
    try {
      expect(await readSecretOverBus(KEYRING_SERVICE, account, refusing.address).secret).toBeNull();
      expect(await readSecretOverBus(KEYRING_SERVICE, account, garbage.address).secret).toBeNull();
      const started = Date.now();
      expect(await readSecretOverBus(KEYRING_SERVICE, account, silent.address).secret).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    } finally {
      for (const { server } of [refusing, garbage, silent]) server.close();
    }
  }, 15_000);
});

describe('the pieces of the read', () => {
  it('a method call parses back as written (header fields, signature, body)', () => {
    const bytes = methodCall(7, { destination: 'org.freedesktop.secrets', path: '/org/freedesktop/secrets', interface: 'org.freedesktop.Secret.Service', member: 'SearchItems', body: [{ dictss: { service: 'baton', username: 'data-key-0011' } }] });
    const parsed = readMessage(Buffer.concat([bytes, Buffer.from('next')]))!;
    expect(parsed.length).toBe(bytes.length);
    expect(parsed.message).toMatchObject({ type: METHOD_CALL, signature: 'a{ss}', replySerial: undefined });
    const body = new Reader(parsed.message.body);
    expect(body.array(8, () => [body.string(), body.string()])).toEqual([
      ['service', 'baton'],
      ['username', 'data-key-0011'],
    ]);
    expect(readMessage(bytes.subarray(0, bytes.length - 1))).toBeNull(); // not whole yet
  });

  it('two exchanges agree on the secret, 128 bytes each side, and a value with leading zeros is padded', () => {
    const a = newDhExchange();
    const b = newDhExchange();
    expect(a.publicValue).toHaveLength(GROUP_BYTES);
    expect(a.sharedSecret(b.publicValue)).toEqual(b.sharedSecret(a.publicValue));
    expect(a.sharedSecret(b.publicValue.subarray(b.publicValue.findIndex((x) => x !== 0)))).toEqual(b.sharedSecret(a.publicValue));
    expect(toGroupSize(Buffer.from([0, 0, 5]))).toEqual(Buffer.concat([Buffer.alloc(GROUP_BYTES - 1), Buffer.from([5])]));
    expect(() => a.sharedSecret(Buffer.alloc(GROUP_BYTES + 1, 0xff))).toThrow();
  });

  it('a transferred secret opens only as a 32-byte key with a whole block of padding', () => {
    const aesKey = randomBytes(16);
    const iv = randomBytes(16);
    const seal = (plain: Buffer) => {
      const c = createCipheriv('aes-128-cbc', aesKey, iv);
      return Buffer.concat([c.update(plain), c.final()]);
    };
    const key = randomBytes(32);
    expect(openTransferredSecret(aesKey, iv, seal(key))).toEqual(key);
    expect(openTransferredSecret(randomBytes(16), iv, seal(key))).toBeNull();
    expect(openTransferredSecret(aesKey, iv, seal(randomBytes(31)))).toBeNull();
    expect(openTransferredSecret(aesKey, iv, seal(randomBytes(40)))).toBeNull();
  });

  it('bus addresses: unix paths (escaped) and abstract sockets, the first of a list; nothing else', () => {
    expect(busSocketPath('unix:path=/run/user/1000/bus')).toBe('/run/user/1000/bus');
    expect(busSocketPath('unix:path=/tmp/a%20b,guid=01;tcp:host=x')).toBe('/tmp/a b');
    expect(busSocketPath('unix:abstract=/tmp/dbus-x,guid=01')).toBe(process.platform === 'linux' ? '\0/tmp/dbus-x' : null);
    expect(busSocketPath('tcp:host=localhost,port=5')).toBeNull();
    expect(busSocketPath('unix:tmpdir=/tmp')).toBeNull();
    expect(busSocketPath(undefined)).toBeNull();
  });
});

describe('the early read of a CLI run', () => {
  it('takes the key from the bus without loading the binding', async () => {
    const account = accountOf();
    const key = randomBytes(32);
    await osKeyStore().write(account, key);
    const dir = join(root, 'store');
    await rm(dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
    await writeFile(join(dir, ENCRYPTION_FILE), JSON.stringify({ version: 1, mode: 'keyring', key: { account, keyId: '0123456789abcdef' }, previous: [], enabledAt: '2026-12-01T00:00:00.000Z' }));
    const script = `
      import { startKeychainReads, osKeyStore } from ${JSON.stringify(resolve(import.meta.dirname, 'key-store.ts'))};
      import { createRequire } from 'node:module';
      await startKeychainReads(${JSON.stringify(dir)});
      const key = await osKeyStore().read(${JSON.stringify(account)});
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('@napi-rs'));
      console.log(JSON.stringify({ key: key.toString('hex'), loaded }));`;
    const file = join(root, 'early.mts');
    await writeFile(file, script);
    const tsx = resolve(import.meta.dirname, '../../../../node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(tsx, [file], { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: service.address } });
    expect(JSON.parse(stdout)).toEqual({ key: key.toString('hex'), loaded: false });
  }, 30_000);
});
