import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AT_REST_STATE_FILE, atRestEncrypted, exportNeedsEncryption } from './export-policy.js';

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
      await writeFile(join(dir, AT_REST_STATE_FILE), '{}');
      expect(await atRestEncrypted(dir)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
