import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { openStore, isStoreError } from '../index.js';
import { makeTempDir } from '../test-support/temp-dir.js';
import type { NewSession } from '../types.js';
import { osKeyStore } from './key-store.js';
import { ENCRYPTION_FILE, readEncryptionState } from './at-rest-state.js';
import { nodeDurableFs } from '../../fs/durable-fs.js';
import { keyringEntries, startSecretService, type SecretService } from './test-support/secret-service.js';
import { isSealedFile } from './at-rest-cipher.js';

/** Every test here runs against a real Secret Service (gnome-keyring on a private D-Bus session bus). */
const MARKER = 'ZEBRA-MARKER-7f3a';
const CHILD = fileURLToPath(new URL('./test-support/open-store-child.ts', import.meta.url));
const execFileP = promisify(execFile);
const base: NewSession = { cwd: '/w/p', gitRoot: '/w/p', branch: 'main', title: `title ${MARKER}`, source: { tool: 'claude' }, holder: 'terminal' };

let service: SecretService;
let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;

beforeAll(async () => {
  service = await startSecretService();
});
afterAll(() => service.stop());
beforeEach(async () => {
  tmp = await makeTempDir();
  root = join(tmp.dir, 'store');
});
afterEach(() => tmp.cleanup());

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name)));
  }
  return out;
}

describe('encryption at rest with the OS keychain', () => {
  it('is on for a new store: the key is written to the Secret Service, only its account and id to encryption.json', async () => {
    const store = await openStore(root);
    expect(store.atRest).toMatchObject({ state: 'on', keyStore: 'Secret Service' });
    const state = (await readEncryptionState(nodeDurableFs, root))!;
    expect(state.key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(await keyringEntries(service)).toContain(state.key.account);
    const key = await osKeyStore().read(state.key.account);
    expect(key?.length).toBe(32);
    // The key itself is nowhere in the data directory.
    for (const bytes of (await snapshot(root)).values()) expect(bytes.includes(key!)).toBe(false);
    await store.close();
  });

  it('reads back everything it sealed: messages, pages, session document, artifacts, handoffs, receipts, events, index', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: `first ${MARKER}` }], [{ bytes: Buffer.from(`patch ${MARKER}`), extension: 'patch' }]);
    const many = Array.from({ length: 300 }, (_, i) => ({ role: 'assistant' as const, content: `reply ${i} ${MARKER}` }));
    await store.append(s.id, 1, many);
    const art = await store.putArtifact(s.id, Buffer.from(`output ${MARKER}`), 'txt');
    await store.recordHandoff(s.id, { handoff_id: 'h-1', note: MARKER });
    await store.putReceipt({ handoffId: 'h-1', sessionId: s.id, payloadSha256: 'a'.repeat(64), answer: { ok: true, note: MARKER }, createdAt: new Date().toISOString() });
    await store.appendEvent({ kind: 'handoff', note: MARKER });
    await store.close();

    const again = await openStore(root);
    expect((await again.getSession(s.id)).title).toBe(base.title);
    const all = await again.readMessages(s.id);
    expect(all).toHaveLength(301);
    expect(all[300]!.content).toBe(`reply 299 ${MARKER}`);
    expect((await again.readMessages(s.id, { tail: 3 })).map((r) => r.seq)).toEqual([298, 299, 300]);
    expect((await again.readMessages(s.id, { afterSeq: 150, limit: 2 })).map((r) => r.seq)).toEqual([151, 152]);
    expect((await again.readMessages(s.id, { tail: 2, beforeSeq: 100 })).map((r) => r.seq)).toEqual([98, 99]);
    expect(Buffer.from(await again.readArtifact(s.id, art.ref)).toString()).toBe(`output ${MARKER}`);
    expect((await again.getReceipt('h-1'))?.answer).toEqual({ ok: true, note: MARKER });
    expect(await again.readEvents()).toEqual([expect.objectContaining({ note: MARKER })]);
    expect((await again.list()).map((r) => r.title)).toEqual([base.title]);
    await again.close();

    // And on disk: no marker anywhere, every whole file sealed, every log line an envelope.
    for (const [path, bytes] of await snapshot(root)) {
      expect(bytes.includes(MARKER), path).toBe(false);
      if (path.endsWith('.jsonl')) {
        for (const line of bytes.toString('utf8').split('\n').filter(Boolean)) expect(line.startsWith('{"s":') || line.startsWith('{"k":'), `${path}: ${line.slice(0, 40)}`).toBe(true);
      } else if (!path.endsWith(ENCRYPTION_FILE)) {
        expect(isSealedFile(bytes), path).toBe(true);
      }
    }
  });

  it('reports a flipped ciphertext bit as damage (quarantined), never as garbage text', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: 'one' }, { role: 'user', content: 'two' }, { role: 'user', content: 'three' }]);
    const dir = store.sessionDir(s.id);
    await store.close();
    const path = join(dir, 'messages.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    // Flip one bit inside the base64 ciphertext of the middle record and fix its CRC up, so only the cipher can tell.
    const env = JSON.parse(lines[1]!) as { s: number; k: string; e: string; crc: string };
    const sealed = Buffer.from(env.e, 'base64');
    sealed[20]! ^= 0x01;
    const { encodeEnvelope } = await import('./line-envelope.js');
    lines[1] = encodeEnvelope(env.s, env.k, sealed);
    await writeFile(path, lines.join('\n'));
    const again = await openStore(root);
    const { report } = await (again as unknown as { openLog(id: string, loc: { dir: string; archived: boolean }): Promise<{ report: { quarantined: unknown[] } }> }).openLog(s.id, { dir, archived: false });
    expect(report.quarantined).toHaveLength(1);
    expect((await again.readMessages(s.id)).map((r) => r.content)).toEqual(['one', 'three']);
    await again.close();
  });

  it('refuses a record moved from another session, even with a valid CRC and key', async () => {
    const store = await openStore(root);
    const a = await store.createSession(base, [{ role: 'user', content: 'a0' }, { role: 'user', content: `a1 secret` }]);
    const b = await store.createSession(base, [{ role: 'user', content: 'b0' }, { role: 'user', content: 'b1' }]);
    await store.close();
    const pa = join(store.sessionDir(a.id), 'messages.jsonl');
    const pb = join(store.sessionDir(b.id), 'messages.jsonl');
    const la = (await readFile(pa, 'utf8')).split('\n');
    const lb = (await readFile(pb, 'utf8')).split('\n');
    lb[1] = la[1]!; // same seq, same key, CRC intact: only the associated data (session id) differs
    await writeFile(pb, lb.join('\n'));
    const again = await openStore(root);
    const got = await again.readMessages(b.id);
    expect(got.map((r) => r.content)).toEqual(['b0']);
    await again.close();
  });

  it('refuses a wrong key with a clear error and writes nothing', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: 'kept' }]);
    await store.close();
    const state = (await readEncryptionState(nodeDurableFs, root))!;
    await osKeyStore().write(state.key.account, Buffer.alloc(32, 7));
    const before = await snapshot(root);
    const error = await openStore(root).then(() => undefined, (e: unknown) => e);
    expect(isStoreError(error, 'KEY_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/wrong key, refused\. Nothing was written/);
    const after = await snapshot(root);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [p, bytes] of after) expect(bytes.equals(before.get(p)!), p).toBe(true);
    void s;
  });

  it('refuses a store whose key is missing from the keychain', async () => {
    const store = await openStore(root);
    await store.close();
    const state = (await readEncryptionState(nodeDurableFs, root))!;
    await osKeyStore().remove(state.key.account);
    await expect(openStore(root)).rejects.toThrow(/is not in the Secret Service/);
  });
});

describe('honest degradation without a secret store', () => {
  it('keeps working unencrypted and says why, when no Secret Service answers', async () => {
    // A process of its own: the keyring binding keeps its D-Bus connection for the life of a process.
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tmp.dir, 'no-bus')}` };
    const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', CHILD, root, MARKER], { env });
    const out = JSON.parse(stdout) as { atRest: { state: string; reason: string }; back: string };
    expect(out.atRest.state).toBe('off');
    expect(out.atRest.reason).toMatch(/no secret store is available \(Secret Service: .+\), so sessions are stored unencrypted/);
    expect(out.back).toBe(MARKER);
    expect(await readFile(join(root, ENCRYPTION_FILE)).catch(() => undefined)).toBeUndefined();
  });

  it('does not turn on by itself for a store that already holds sessions', async () => {
    const plain = await openStore(root, { keyStore: null });
    expect(plain.atRest).toMatchObject({ state: 'off', reason: expect.stringMatching(/no secret store configured/) });
    await plain.createSession(base, []);
    await plain.close();
    const later = await openStore(root);
    expect(later.atRest).toMatchObject({ state: 'off', reason: expect.stringMatching(/baton encrypt --enable/) });
    await later.close();
  });
});

describe('a session bundle between two encrypted stores (the relay path)', () => {
  it('leaves as plaintext sealed for the other device, lands sealed under the receiver\'s own key', async () => {
    const { readSessionBundle, landSessionBundle } = await import('../../relay/session-bundle.js');
    const a = await openStore(join(tmp.dir, 'a'));
    const b = await openStore(join(tmp.dir, 'b'));
    expect(a.atRest.state === 'on' && b.atRest.state === 'on' && a.atRest.keyId !== b.atRest.keyId).toBe(true);
    const s = await a.createSession(base, [{ role: 'user', content: `moved ${MARKER}` }], [{ bytes: Buffer.from(`art ${MARKER}`), extension: 'txt' }]);
    await a.append(s.id, 1, [{ role: 'assistant', content: 'second' }]);
    const bundle = await readSessionBundle(a, s.id);
    const log = bundle.files.find((f) => f.path === 'messages.jsonl')!.data.toString('utf8');
    expect(log).toContain(`moved ${MARKER}`);
    expect(bundle.files.find((f) => f.path.startsWith('artifacts/'))!.data.toString()).toBe(`art ${MARKER}`);
    expect(await landSessionBundle(b, bundle, { deviceId: 'd-a', name: 'a' })).toBe('landed');
    expect((await b.readMessages(s.id)).map((r) => r.content)).toEqual([`moved ${MARKER}`, 'second']);
    expect((await b.getSession(s.id)).relayedFrom).toMatchObject({ deviceId: 'd-a' });
    for (const [path, bytes] of await snapshot(join(tmp.dir, 'b'))) expect(bytes.includes(MARKER), path).toBe(false);
    await a.close();
    await b.close();
  });
});

describe('tampered whole files', () => {
  it('a flipped bit in session.json is damage: the newest readable revision stands in, with a note', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: 'kept' }]);
    await store.mutate(s.id, (d) => ({ ...d, title: 'second title' }));
    const dir = store.sessionDir(s.id);
    await store.close();
    const path = join(dir, 'session.json');
    const bytes = await readFile(path);
    bytes[bytes.length - 20]! ^= 0x04;
    // session.json is a hard link of its revision marker: write a new file, not through the link.
    await rm(path);
    await writeFile(path, bytes, { mode: 0o600 });
    const again = await openStore(root);
    const doc = await again.getSession(s.id);
    expect(doc.notes?.join('\n')).toMatch(/failed authentication/);
    // The damaged bytes are kept aside exactly as they were.
    const kept = (await readdir(dir)).find((n) => n.startsWith('session.unreadable-'));
    expect(kept).toBeDefined();
    expect((await again.fileSystem.readFile(join(dir, kept!))).equals(bytes)).toBe(true);
    expect((await again.readMessages(s.id)).map((r) => r.content)).toEqual(['kept']);
    await again.close();
  });

  it('a flipped bit in an artifact is reported as damage, never returned as bytes', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, []);
    const { ref } = await store.putArtifact(s.id, Buffer.from('patch body'), 'patch');
    const path = join(store.sessionDir(s.id), ref);
    const bytes = await readFile(path);
    bytes[bytes.length - 1]! ^= 0x80;
    await writeFile(path, bytes);
    const error = await store.readArtifact(s.id, ref).then(() => undefined, (e: unknown) => e);
    expect(isStoreError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/is encrypted and failed authentication: it was changed or moved from another session/);
    await store.close();
  });
});
