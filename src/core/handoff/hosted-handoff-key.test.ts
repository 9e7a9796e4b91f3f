import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enablePassphraseEncryption } from '../store/at-rest/convert.js';
import { passphraseSettings } from '../store/at-rest/host-unlock.js';
import { dropPassphraseKey, holdPassphraseKey, unlockWithPassphrase } from '../store/at-rest/passphrase.js';
import { openStore } from '../store/index.js';
import { HOSTED_HANDOFFS_DIR } from '../store/layout.js';
import { makeTempDir } from '../store/test-support/temp-dir.js';
import { payloadDigest, recordDigest, recordedDigest } from './hosted-handoff-key.js';

const PASSPHRASE = 'hosted handoff digest passphrase';
const opened: Array<{ close(): Promise<void> }> = [];
const held: string[] = [];
const made: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const root of held.splice(0)) dropPassphraseKey(root);
  for (const cleanup of made.splice(0)) await cleanup();
});

async function store(encrypted: boolean) {
  const { dir: root, cleanup } = await makeTempDir('baton-hosted-key-');
  made.push(cleanup);
  if (encrypted) {
    await enablePassphraseEncryption(root, Buffer.from(PASSPHRASE));
    const settings = (await passphraseSettings(root))!;
    holdPassphraseKey(root, await unlockWithPassphrase(root, settings.kdf, settings.key.keyId, Buffer.from(PASSPHRASE)));
    held.push(root);
  }
  const s = await openStore(root);
  opened.push(s);
  return s;
}

const digest = payloadDigest({ cwd: '/work/project', title: 'secret-title-marker', source: 'm.jsonl', bytes: Buffer.from('{"role":"user","content":"hi"}\n') });

describe('a hosted handoff request digest on disk', () => {
  it('is sealed in an encrypted store (issue 17: derived from the content, not on the allow-list) and reads back', async () => {
    const s = await store(true);
    const id = 's-hostedkey1';
    await recordDigest(s.root, id, digest);
    const onDisk = await readFile(join(s.root, HOSTED_HANDOFFS_DIR, id));
    expect(onDisk.toString('latin1')).not.toContain(digest);
    expect(await recordedDigest(s.root, id)).toBe(digest);
  });

  it('is plain in a plaintext store, and a tampered sealed file matches no request', async () => {
    const plain = await store(false);
    await recordDigest(plain.root, 's-hostedkey2', digest);
    expect((await readFile(join(plain.root, HOSTED_HANDOFFS_DIR, 's-hostedkey2'), 'utf8')).trim()).toBe(digest);

    const sealed = await store(true);
    const path = join(sealed.root, HOSTED_HANDOFFS_DIR, 's-hostedkey3');
    await recordDigest(sealed.root, 's-hostedkey3', digest);
    const bytes = await readFile(path);
    bytes[bytes.length - 3]! ^= 0x01;
    await writeFile(path, bytes);
    expect(await recordedDigest(sealed.root, 's-hostedkey3')).toBeNull();
  });

  it('goes with its session when the session is deleted', async () => {
    const s = await store(false);
    const doc = await s.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 'hosted', source: { tool: 'baton' }, holder: 'terminal' }, [{ role: 'user', content: 'hello' }]);
    await recordDigest(s.root, doc.id, digest);
    await recordDigest(s.root, 's-otherkey1', digest);
    await s.delete(doc.id);
    expect(await readdir(join(s.root, HOSTED_HANDOFFS_DIR))).toEqual(['s-otherkey1']);
  });
});
