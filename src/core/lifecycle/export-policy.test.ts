import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atRestEncrypted, exportNeedsEncryption } from './export-policy.js';
import { ENCRYPTION_FILE } from '../store/at-rest/at-rest-state.js';

describe('exportNeedsEncryption', () => {
  it.each([
    [true, 'none', true],
    [true, 'passphrase', false],
    [true, 'device', false],
    [false, 'none', false],
    [false, 'passphrase', false],
    [false, 'device', false],
  ] as const)('at rest %s, chosen %s → needs --plain: %s', (atRest, chosen, needs) => {
    expect(exportNeedsEncryption(atRest, chosen)).toBe(needs);
  });

  it('reads whether encryption at rest is on from the data directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-at-rest-'));
    try {
      expect(await atRestEncrypted(dir)).toBe(false);
      const state = { version: 1, mode: 'keyring', key: { account: 'data-key-0123456789abcdef', keyId: '0123456789abcdef' }, previous: [], enabledAt: '2026-11-30T00:00:00.000Z' };
      await writeFile(join(dir, ENCRYPTION_FILE), JSON.stringify(state));
      expect(await atRestEncrypted(dir)).toBe(true);
      // A damaged settings file is not "off": it refuses, so a clear export cannot slip through.
      await writeFile(join(dir, ENCRYPTION_FILE), '{');
      await expect(atRestEncrypted(dir)).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
