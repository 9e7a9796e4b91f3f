import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Configuration } from 'electron-builder';
import { REPO_ROOT } from '../../core/test-support/shared-dir.js';
import { desktopFileValidate } from '../../core/test-support/desktop-file-validate.js';
import { quoteExecArg, readDesktopTemplate, renderDesktopEntry } from '../../core/desktop-entry.js';
import { readBuilderConfig } from './builder-config.js';
import { desktopEntryFromBuilder } from './desktop-entry-from-builder.js';

async function builderConfig(): Promise<Configuration> {
  const read = await readBuilderConfig(REPO_ROOT);
  if (!read.ok) throw new Error(`${read.file}: ${read.error}`);
  return read.config;
}

async function validate(text: string) {
  const dir = await mkdtemp(join(tmpdir(), 'baton-desktop-'));
  try {
    const file = join(dir, 'baton.desktop');
    await writeFile(file, text);
    return await desktopFileValidate(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the packaged .desktop entry, generated from electron-builder.yml and assets/baton.desktop.template', () => {
  it('carries the baton:// MIME type and the --baton-url marker, and passes desktop-file-validate', async () => {
    const entry = desktopEntryFromBuilder(await builderConfig(), await readDesktopTemplate());
    if (!entry.ok) throw new Error(entry.error);
    expect(entry.text).toContain('MimeType=x-scheme-handler/baton;\n');
    expect(entry.text).toContain('Exec=baton --baton-url %u\n');
    expect(entry.text).toContain('Name=Baton\n');
    expect(entry.text).toContain('Categories=Development;\n');
    expect(await validate(entry.text)).toEqual({ code: 0, output: '' });
  });

  it('with an installed path that needs quoting it still validates', async () => {
    const entry = desktopEntryFromBuilder(await builderConfig(), await readDesktopTemplate(), '/opt/Baton App/baton');
    if (!entry.ok) throw new Error(entry.error);
    expect(entry.text).toContain('Exec="/opt/Baton App/baton" --baton-url %u\n');
    expect(await validate(entry.text)).toEqual({ code: 0, output: '' });
  });

  it('a config without the baton protocol or the marker is refused, not written', async () => {
    const config = await builderConfig();
    const template = await readDesktopTemplate();
    expect(desktopEntryFromBuilder({ ...config, protocols: [] }, template)).toMatchObject({ ok: false, error: expect.stringContaining('baton protocol') });
    expect(desktopEntryFromBuilder({ ...config, linux: { ...config.linux, executableArgs: [] } }, template)).toMatchObject({ ok: false, error: expect.stringContaining('--baton-url') });
  });

  it('desktop-file-validate does fail a broken entry (the check can fail)', async () => {
    const result = await validate('[Desktop Entry]\nName=Baton\nExec=baton %u\nMimeType=x-scheme-handler/baton\n');
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Type/);
  });

  it('quotes Exec arguments by the spec, and each quoted path validates', async () => {
    expect(quoteExecArg('/usr/bin/baton')).toBe('/usr/bin/baton');
    expect(quoteExecArg('/a b')).toBe('"/a b"');
    expect(quoteExecArg('/a"b')).toBe('"/a\\\\"b"');
    expect(quoteExecArg('/100%')).toBe('"/100%%"');
    const template = await readDesktopTemplate();
    for (const path of ['/a b/baton', '/a"b/baton', '/$HOME/baton', '/x\\y/baton', '/50% off/baton', "/it's/baton", '/semi;colon/baton']) {
      const entry = renderDesktopEntry(template, { name: 'Baton', comment: 'c', categories: 'Development;', exec: [path, '--baton-url'], mimeTypes: ['x-scheme-handler/baton'] });
      if (!entry.ok) throw new Error(entry.error);
      expect(await validate(entry.text), path).toEqual({ code: 0, output: '' });
    }
  });
});
