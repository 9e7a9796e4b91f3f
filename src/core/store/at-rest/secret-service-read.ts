import { createConnection, type Socket } from 'node:net';
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { newDhExchange, type DhExchange } from './dh-exchange.js';
import { KEY_BYTES } from './aead.js';
import { methodCall, METHOD_RETURN, readMessage, Reader, type Message } from './dbus-wire.js';

/**
 * A data key read from the Secret Service over the session bus by this process itself, without
 * @napi-rs/keyring: for the early keychain read of a CLI run (key-store.ts startKeychainReads).
 *
 * Why: the binding's entry connects to the bus and negotiates its encrypted session synchronously,
 * on the main thread, when it is constructed (two 1024-bit exponentiations here and one in the
 * keyring daemon: 8–10 ms), and loading the binding takes 4–5 ms more; both sat before the first
 * screen of every encrypted `baton resume` and `baton list` (bench/README.md, issue 17). Here the
 * calls are written to the socket at once (authentication, Hello, OpenSession and SearchItems in one
 * write: the bus reads them in order) and answered while the CLI's bundle compiles; one more round
 * trip (GetSecret) follows.
 *
 * The same session the binding negotiates: dh-ietf1024-sha256-aes128-cbc-pkcs7 (the secret crosses
 * the bus encrypted), the same item (attributes service and username, as keyring-rs writes them),
 * read only when it is unlocked and alone. Anything else (another bus address form, a locked or
 * ambiguous item, an error, a reply that does not parse, a secret that is not a data key, no answer
 * within READ_TIMEOUT_MS) answers null, and the caller reads through the binding as before: this is
 * a faster way to the same answer, never another answer.
 */
export const READ_TIMEOUT_MS = 2_000;
/** The bus's answer to AUTH is one short line (`OK <guid>`); bytes past this without a line end are not a bus. */
export const MAX_AUTH_LINE_BYTES = 512;

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE_IFACE = 'org.freedesktop.Secret.Service';
const ITEM_IFACE = 'org.freedesktop.Secret.Item';
const ALGORITHM = 'dh-ietf1024-sha256-aes128-cbc-pkcs7';

/** The socket path of a session bus address (unix:path= or unix:abstract=, the first of a list); null for any other form. */
export function busSocketPath(address: string | undefined): string | null {
  const first = address?.split(';')[0];
  const match = first ? /^unix:(.*)$/.exec(first) : null;
  if (!match) return null;
  const params = new Map(match[1]!.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const));
  const unescape = (v: string) => {
    try {
      return decodeURIComponent(v);
    } catch {
      return null;
    }
  };
  const path = params.get('path');
  if (path) return unescape(path);
  const abstract = params.get('abstract');
  if (abstract && process.platform === 'linux') return `\0${unescape(abstract) ?? ''}`;
  return null;
}

/** The secret of GetSecret's (oayays) under the session's AES key; null unless it is a data key with exact PKCS#7 padding. */
export function openTransferredSecret(aesKey: Buffer, iv: Buffer, value: Buffer): Buffer | null {
  if (iv.length !== 16 || value.length !== KEY_BYTES + 16) return null;
  const decipher = createDecipheriv('aes-128-cbc', aesKey, iv);
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(value), decipher.final()]);
  // A data key is 32 bytes: a whole block of padding after it (under a wrong key, 2^-128 likely).
  for (let i = KEY_BYTES; i < plain.length; i++) if (plain[i] !== 16) return null;
  return plain.subarray(0, KEY_BYTES);
}

/**
 * Starts reading `account`'s secret under `service` from the bus at `address` (the session bus's,
 * by default). `sent` resolves once the first calls are written (or the read gave up): the caller
 * lets the event loop turn that far before its long synchronous work. `secret`: the key, or null.
 */
export function readSecretOverBus(service: string, account: string, address = process.env.DBUS_SESSION_BUS_ADDRESS): { sent: Promise<void>; secret: Promise<Buffer | null> } {
  const path = busSocketPath(address);
  if (path === null || typeof process.getuid !== 'function') return { sent: Promise.resolve(), secret: Promise.resolve(null) };
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const secret = new Promise<Buffer | null>((resolve) => {
    let socket: Socket;
    let timer: NodeJS.Timeout;
    const finish = (value: Buffer | null) => {
      clearTimeout(timer);
      socket.destroy();
      markSent();
      resolve(value);
    };
    // Not unref()'d: the socket holds the process until the read ends, and a daemon that never
    // answers must not hold it longer than this.
    timer = setTimeout(() => finish(null), READ_TIMEOUT_MS);
    try {
      socket = createConnection(path);
    } catch {
      clearTimeout(timer);
      markSent();
      resolve(null);
      return;
    }
    // Made once the connection is under way: the bus accepts it while this process loads
    // node:crypto (on first use in the CLI's bundles, ~5 ms here) and makes its key pair.
    let dh: DhExchange;
    try {
      dh = newDhExchange();
    } catch {
      finish(null);
      return;
    }
    const calls = { hello: 1, session: 2, search: 3, get: 4 };
    const uid = Buffer.from(String(process.getuid!()), 'ascii').toString('hex');
    socket.once('connect', () => {
      socket.write(
        Buffer.concat([
          Buffer.from(`\0AUTH EXTERNAL ${uid}\r\nBEGIN\r\n`, 'ascii'),
          methodCall(calls.hello, { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' }),
          methodCall(calls.session, { destination: SECRETS, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'OpenSession', body: [{ s: ALGORITHM }, { vay: dh.publicValue }] }),
          methodCall(calls.search, { destination: SECRETS, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'SearchItems', body: [{ dictss: { service, username: account } }] }),
        ]),
        () => markSent(),
      );
    });
    let pending: Buffer = Buffer.alloc(0);
    let authorized = false;
    let session: { path: string; key: Buffer } | null = null;
    let item: string | null = null;
    // The keyring daemon has been seen to abort when a client leaves in the middle of its session's
    // negotiation (test-support/secret-service.ts): until OpenSession is answered, giving up waits.
    let negotiating = true;
    let givenUp = false;
    const giveUp = () => (negotiating ? (givenUp = true) : finish(null));
    const onMessage = (m: Message) => {
      if (m.replySerial === undefined) return; // a signal (NameAcquired)
      if (m.replySerial === calls.session) negotiating = false;
      if (m.type !== METHOD_RETURN) return giveUp(); // an error
      const body = new Reader(m.body);
      if (m.replySerial === calls.session) {
        if (m.signature !== 'vo' || body.signature() !== 'ay') return giveUp();
        const theirs = body.bytes();
        const sessionPath = body.string();
        session = { path: sessionPath, key: Buffer.from(hkdfSync('sha256', dh.sharedSecret(theirs), Buffer.alloc(0), Buffer.alloc(0), 16)) };
        if (givenUp) return finish(null);
      } else if (m.replySerial === calls.search) {
        if (m.signature !== 'aoao') return giveUp();
        const unlocked = body.array(4, () => body.string());
        const locked = body.array(4, () => body.string());
        // None, several, or one that needs unlocking (a prompt): the binding decides.
        if (unlocked.length !== 1 || locked.length !== 0) return giveUp();
        item = unlocked[0]!;
      } else if (m.replySerial === calls.get) {
        if (m.signature !== '(oayays)' || session === null) return finish(null);
        body.align(8);
        const from = body.string();
        const iv = body.bytes();
        const value = body.bytes();
        body.string(); // content type
        return finish(from === session.path ? openTransferredSecret(session.key, iv, value) : null);
      }
      if (session !== null && item !== null && !givenUp) {
        socket.write(methodCall(calls.get, { destination: SECRETS, path: item, interface: ITEM_IFACE, member: 'GetSecret', body: [{ o: session.path }] }));
        item = null; // asked once
      }
    };
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      try {
        if (!authorized) {
          const eol = pending.indexOf('\r\n');
          if (eol < 0) return pending.length > MAX_AUTH_LINE_BYTES ? finish(null) : undefined;
          if (!pending.subarray(0, eol).toString('ascii').startsWith('OK ')) return finish(null); // refused: no session began
          authorized = true;
          pending = pending.subarray(eol + 2);
        }
        for (let next = readMessage(pending); next !== null; next = readMessage(pending)) {
          pending = pending.subarray(next.length);
          onMessage(next.message);
          if (socket.destroyed) return;
        }
      } catch {
        // A reply that does not parse (DbusWireError), a public value the exchange refuses: given up,
        // after OpenSession's answer if it is still awaited (giveUp; the timeout still ends it).
        giveUp();
      }
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
  return { sent, secret };
}
