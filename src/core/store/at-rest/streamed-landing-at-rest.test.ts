import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../index.js';
import { makeTempDir } from '../test-support/temp-dir.js';
import { scanMessageFile } from '../../handoff/message-source.js';
import { landAndReadBack } from '../../handoff/send.js';
import { isSealedFile } from './at-rest-cipher.js';
import { startSecretService, type SecretService } from './test-support/secret-service.js';

/**
 * Issue 20 with issue 15's encryption at rest: a `--messages` file streamed through the landing
 * (many small batches, a trimmed output, past the checkpoint interval) is sealed record by record,
 * reads back whole, and its log figures (over the plaintext lines) equal an unencrypted landing's.
 */
const MARKER = 'OKAPI-MARKER-91c2';
let service: SecretService;
let tmp: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  service = await startSecretService();
});
afterAll(() => service.stop());
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.cleanup());

describe('a streamed landing into a store encrypted at rest', () => {
  it('seals every record, reads back what an unencrypted landing holds, and hashes the same plaintext lines', async () => {
    const cwd = join(tmp.dir, 'work');
    await mkdir(cwd);
    const big = Array.from({ length: 400 }, (_, i) => `line ${i} ${MARKER}`).join('\n');
    const messages = Array.from({ length: 1_500 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `message ${i} ${MARKER} ${'words '.repeat(30)}`,
      id: `m-${i}`,
      createdAt: '2026-11-30T12:00:00.000Z',
      ...(i === 700 ? { toolCalls: [{ id: 't', name: 'Bash', input: { command: 'make' }, output: big, exitCode: 2 }] } : {}),
    }));
    const path = join(tmp.dir, 'messages.jsonl');
    await writeFile(path, `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);

    const land = async (root: string, keyStore: 'os' | null) => {
      const store = await openStore(root, keyStore === null ? { keyStore: null } : {});
      const scanned = await scanMessageFile(path);
      if (!scanned.ok) throw new Error(scanned.message);
      const landed = await landAndReadBack(store, { id: 's-fixed', cwd, title: 'streamed', messages: scanned.source, scan: scanned.scan, batchChars: 20_000 });
      expect(store.atRest.state).toBe(keyStore === null ? 'off' : 'on');
      const records = await store.readMessages(landed.session.id);
      await store.close();
      return { landed, records };
    };
    const sealed = await land(join(tmp.dir, 'sealed'), 'os');
    const plain = await land(join(tmp.dir, 'plain'), null);

    expect(sealed.records).toHaveLength(1_500);
    expect(sealed.records).toEqual(plain.records);
    expect(sealed.records[700]!.toolCalls![0]!.fullOutput).toBeDefined();
    // The same plaintext lines; the sealed log also states its bytes as stored (manifest 1.1).
    const { stored, ...sealedPlain } = sealed.landed.log;
    expect(sealedPlain).toEqual(plain.landed.log);
    expect(plain.landed.log.stored).toBeUndefined();
    const storedFile = await readFile(join(tmp.dir, 'sealed', 'sessions', 's-fixed', 'messages.jsonl'));
    expect(stored).toEqual({ bytes: storedFile.length, sha256: createHash('sha256').update(storedFile).digest('hex') });
    expect(sealed.landed.digest).toEqual(plain.landed.digest);

    const dir = join(tmp.dir, 'sealed', 'sessions', 's-fixed');
    const names = await readdir(dir, { recursive: true });
    expect(names).toContain('messages.checkpoint.json');
    for (const name of names) {
      const bytes = await readFile(join(dir, name)).catch(() => null);
      if (!bytes) continue; // a directory
      expect(bytes.includes(MARKER), name).toBe(false);
      if (name === 'messages.jsonl') for (const line of bytes.toString('utf8').split('\n').filter(Boolean)) expect(line.startsWith('{"s":'), line.slice(0, 30)).toBe(true);
      else if (name.endsWith('.txt')) expect(isSealedFile(bytes), name).toBe(true);
    }
  });
});
