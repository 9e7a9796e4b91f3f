import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../core/test-support/shared-dir.js';
import { readBuilderConfig } from './builder-config.js';
import { fuseProblems, REQUIRED_FUSES } from './fuses.js';

describe('electron fuses in electron-builder.yml', () => {
  it('the builder config (read and schema-checked by electron-builder itself) sets every required fuse', async () => {
    const read = await readBuilderConfig(REPO_ROOT);
    if (!read.ok) throw new Error(`${read.file}: ${read.error}`);
    expect(read.file).toBe(join(REPO_ROOT, 'electron-builder.yml'));
    expect(fuseProblems(read.config.electronFuses)).toEqual([]);
    expect(read.config.asar).toBe(true); // onlyLoadAppFromAsar needs an asar
  });

  it('names the checklist fuses', () => {
    expect(REQUIRED_FUSES).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
  });

  it.each(Object.keys(REQUIRED_FUSES))('fails when %s is removed from, or flipped in, a copy of the config', async (fuse) => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-fuses-'));
    try {
      const original = await readFile(join(REPO_ROOT, 'electron-builder.yml'), 'utf8');
      const line = new RegExp(`^\\s+${fuse}: (true|false)\\n`, 'm');
      expect(original).toMatch(line);
      await writeFile(join(dir, 'electron-builder.yml'), original.replace(line, ''));
      const removed = await readBuilderConfig(dir);
      if (!removed.ok) throw new Error(removed.error);
      expect(fuseProblems(removed.config.electronFuses)).toEqual([{ fuse, expected: REQUIRED_FUSES[fuse as keyof typeof REQUIRED_FUSES], found: undefined }]);

      await writeFile(join(dir, 'electron-builder.yml'), original.replace(line, (m) => m.replace(/true|false/, (v) => (v === 'true' ? 'false' : 'true'))));
      const flipped = await readBuilderConfig(dir);
      if (!flipped.ok) throw new Error(flipped.error);
      expect(fuseProblems(flipped.config.electronFuses).map((p) => p.fuse)).toEqual([fuse]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a misspelt fuse is refused by electron-builder\'s schema, with the file named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-fuses-'));
    try {
      await writeFile(join(dir, 'electron-builder.yml'), 'appId: x\nelectronFuses:\n  runAsNod: false\n');
      const read = await readBuilderConfig(dir);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toMatch(/runAsNod|electronFuses/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
