import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_PROTOCOL_VERSION, type Manifest } from '../../shared/manifest.js';
import { enablePassphraseEncryption } from '../store/at-rest/convert.js';
import { dropPassphraseKey, holdPassphraseKey, unlockWithPassphrase } from '../store/at-rest/passphrase.js';
import { passphraseSettings } from '../store/at-rest/host-unlock.js';
import { openStore } from '../store/index.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';
import { buildManifest } from './build-manifest.js';
import { landAndReadBack, type LandedSession } from './send.js';
import { verifyAgainstDisk } from './verify-offer.js';

/**
 * Manifest 1.1 (issue 17): a log encrypted at rest is checked at a local receiver by hashing its
 * bytes as stored, with no record decrypted; bytes that differ fall back to the plaintext checks.
 * A real store encrypted with a passphrase key (AES-256-GCM per record), real files.
 */
const PASSPHRASE = 'stored bytes check passphrase';
let root: string;
let dataDir: string;
let store: Awaited<ReturnType<typeof openStore>>;
let landed: LandedSession;
let manifest: Manifest;

beforeEach(async () => {
  root = await tempDataDir('baton-stored-');
  dataDir = join(root, 'data');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const work = join(root, 'work');
  await mkdir(work);
  await enablePassphraseEncryption(dataDir, Buffer.from(PASSPHRASE));
  const settings = (await passphraseSettings(dataDir))!;
  holdPassphraseKey(dataDir, await unlockWithPassphrase(dataDir, settings.kdf, settings.key.keyId, Buffer.from(PASSPHRASE)));
  store = await openStore(dataDir);
  expect(store.atRest.state).toBe('on');
  const longOutput = Array.from({ length: 400 }, (_, i) => `line ${i} of a long build log`).join('\n');
  landed = await landAndReadBack(store, {
    cwd: work,
    title: 'stored bytes',
    messages: [
      { role: 'user', content: 'build it' },
      { role: 'assistant', content: 'running', toolCalls: [{ id: 't1', name: 'bash', input: { command: 'make' }, output: longOutput, exitCode: 0 }] },
      ...Array.from({ length: 200 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'assistant' | 'user', content: `message ${i}` })),
    ],
  });
  manifest = buildManifest({ handoffId: 'h-stored', session: landed.session, digest: landed.digest, fullOutputs: landed.fullOutputs, workspace: landed.session.workspace as never, client: { name: 'test', version: '0' }, log: landed.log });
});

afterEach(async () => {
  await store.close();
  dropPassphraseKey(dataDir);
  await removeDir(root);
});

const logPath = () => join(store.sessionDir(landed.session.id), 'messages.jsonl');

describe('the stored-bytes check of an encrypted log (manifest 1.1)', () => {
  it('the sender states the ciphertext file whole, with the full outputs its records name', async () => {
    const file = await readFile(logPath());
    expect(manifest.protocol_version).toBe(MANIFEST_PROTOCOL_VERSION);
    expect(manifest.context.log_stored_bytes).toBe(file.length);
    expect(manifest.context.log_stored_sha256).toBe(createHash('sha256').update(file).digest('hex'));
    // Plaintext and stored hashes differ: the file is ciphertext.
    expect(manifest.context.log_stored_sha256).not.toBe(manifest.context.log_sha256);
    expect(manifest.context.full_outputs).toHaveLength(1);
    expect(manifest.context.full_outputs![0]!.ref).toMatch(/^artifacts\/[0-9a-f]{64}\.txt$/);
  });

  it('a local receiver accepts by the stored bytes alone: a wrong plaintext hash is never looked at', async () => {
    expect(await verifyAgainstDisk(store, manifest)).toEqual([]);
    const plaintextClaimWrong = { ...manifest, context: { ...manifest.context, log_sha256: '0'.repeat(64), messages_sha256: '0'.repeat(64) } };
    expect(await verifyAgainstDisk(store, plaintextClaimWrong)).toEqual([]);
    const stored = await store.hashStoredLog(landed.session.id, manifest.context.log_stored_bytes!);
    expect(stored).toMatchObject({ bytes: manifest.context.log_stored_bytes, sha256: manifest.context.log_stored_sha256, lines: landed.session.messageCount });
  });

  it('other stored bytes (another key, as after a relay) fall back to the plaintext checks, which pass', async () => {
    const otherKey = { ...manifest, context: { ...manifest.context, log_stored_sha256: 'f'.repeat(64) } };
    expect(await verifyAgainstDisk(store, otherKey)).toEqual([]);
    // …and decide: with the plaintext claim wrong too, the mismatch is reported.
    const bothWrong = { ...otherKey, context: { ...otherKey.context, log_sha256: '0'.repeat(64) } };
    expect((await verifyAgainstDisk(store, bothWrong)).map((m) => m.field)).toContain('context.log_sha256');
  });

  it('a flipped ciphertext byte is refused (the plaintext checks report it), never accepted', async () => {
    const bytes = await readFile(logPath());
    const at = bytes.indexOf(Buffer.from('"e":"')) + 10;
    bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    await writeFile(logPath(), bytes);
    const fields = (await verifyAgainstDisk(store, manifest)).map((m) => m.field);
    expect(fields.length).toBeGreaterThan(0);
  });

  it('a missing full-output artifact is reported although the log bytes match', async () => {
    await rm(join(store.sessionDir(landed.session.id), manifest.context.full_outputs![0]!.ref));
    expect((await verifyAgainstDisk(store, manifest)).map((m) => m.field)).toEqual(['context.full_outputs']);
  });

  it('a count that disagrees with the stored lines is reported', async () => {
    const wrongCount = { ...manifest, context: { ...manifest.context, message_count: manifest.context.message_count + 1 } };
    expect(await verifyAgainstDisk(store, wrongCount)).toEqual([{ field: 'context.message_count', expected: manifest.context.message_count + 1, actual: manifest.context.message_count }]);
  });
});
