import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation } from '../../core/handoff/test-support/handoff-fixture.js';
import { openStore } from '../../core/store/index.js';
import { startSecretService, type SecretService } from '../../core/store/at-rest/test-support/secret-service.js';

/**
 * `baton export` from a store encrypted at rest (issue 21 with issue 17): a real Secret Service
 * (gnome-keyring on a private D-Bus bus) started before the store is opened, so the new store is
 * encrypted by default; the real CLI refuses a clear export unless --plain, which warns.
 */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let service: SecretService;
let root: string;
let id: string;

function baton(home: string, args: string[], keychain = true): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { env: { ...process.env, ...(keychain ? {} : { DBUS_SESSION_BUS_ADDRESS: '' }), HOME: join(root, 'home'), BATON_HOME: join(root, home), XDG_RUNTIME_DIR: join(root, `run-${home}`) }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const json = (run: { stdout: string }) => JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

beforeAll(async () => {
  service = await startSecretService();
  root = await mkdtemp(join(tmpdir(), 'baton-export-encrypted-'));
  const store = await openStore(join(root, 'sealed'));
  id = (await store.createSession({ cwd: root, gitRoot: null, branch: null, title: 'sealed', source: { tool: 'baton' }, holder: 'terminal' }, conversation(4))).id;
  await store.close();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await service.stop();
});

describe('baton export with encryption at rest on', () => {
  it('refuses a clear export unless --plain, which warns; the clear bundle lands on an unencrypted machine', async () => {
    expect(existsSync(join(root, 'sealed', 'encryption.json'))).toBe(true);
    const refused = await baton('sealed', ['export', id, '--out', join(root, 'clear.baton'), '--json']);
    expect(json(refused)).toMatchObject({ ok: false, code: 'ENCRYPTION_REQUIRED' });
    expect(existsSync(join(root, 'clear.baton'))).toBe(false);
    const plain = await baton('sealed', ['export', id, '--out', join(root, 'clear.baton'), '--plain']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('warning: the bundle is not encrypted');
    // The records leave opened (plaintext inside the bundle): they land on a machine with no
    // keychain, and on another encrypted one under its own key; both receivers verify the sender's
    // figures (log bytes and hash over the record lines as written), so both accept.
    const plainHome = await baton('plain', ['import', join(root, 'clear.baton'), '--trust', '--json'], false);
    expect(json(plainHome)).toMatchObject({ ok: true, status: 'accepted', sessionId: id });
    expect(existsSync(join(root, 'plain', 'encryption.json'))).toBe(false);
    const sealedHome = await baton('other', ['import', join(root, 'clear.baton'), '--trust', '--json']);
    expect(json(sealedHome)).toMatchObject({ ok: true, status: 'accepted', sessionId: id });
    expect(existsSync(join(root, 'other', 'encryption.json'))).toBe(true);
  });
});
