import { execFile } from 'node:child_process';
import { chmod, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicationsDir, registerBatonHandler, resolveDesktopExec } from './desktop-registration.js';
import { desktopFileValidate } from './test-support/desktop-file-validate.js';
import { onPath } from './handoff/launcher.js';

let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-xdg-'));
  env = { PATH: process.env.PATH, HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_DIRS: join(root, 'data') };
  await mkdir(env.HOME!, { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

function xdgMimeQuery(): Promise<string> {
  return new Promise((resolve) => execFile('xdg-mime', ['query', 'default', 'x-scheme-handler/baton'], { env }, (_e, stdout) => resolve(String(stdout).trim())));
}

describe('baton doctor --fix registration (temporary XDG directories)', () => {
  it('writes a valid baton.desktop with the MIME type and the marker, and makes it the default with xdg-mime', async (ctx) => {
    const exec = ['/opt/Baton Build/baton', '--baton-url'];
    const result = await registerBatonHandler({ exec, env });
    expect(result.file).toBe(join(root, 'data', 'applications', 'baton.desktop'));
    const text = await readFile(result.file, 'utf8');
    expect(text).toContain('MimeType=x-scheme-handler/baton;\n');
    expect(text).toContain('Exec="/opt/Baton Build/baton" --baton-url %u\n');
    const validation = await desktopFileValidate(result.file);
    expect(validation, validation.output).toEqual({ code: 0, output: '' });

    if (!onPath('xdg-mime', env)) {
      // Said plainly, not skipped: the file is written, the default is not set.
      expect(result.xdgMime.status).toBe('absent');
      ctx.annotate('xdg-mime is not installed here: the default handler was not set (the entry was written and validated)');
      return;
    }
    expect(result.xdgMime).toMatchObject({ status: 'done' });
    expect(await xdgMimeQuery()).toBe('baton.desktop');
    expect(await readFile(join(root, 'config', 'mimeapps.list'), 'utf8')).toContain('x-scheme-handler/baton=baton.desktop');
  });

  it('without xdg-mime on PATH the entry is still written and the result says what was not done', async () => {
    const bin = join(root, 'bin');
    await mkdir(bin);
    // Only what the fix may need besides xdg-mime: nothing. (The atomic write needs no tools.)
    const result = await registerBatonHandler({ exec: ['/opt/baton/baton', '--baton-url'], env: { ...env, PATH: bin } });
    expect(existsSync(result.file)).toBe(true);
    expect(result.xdgMime.status).toBe('absent');
    expect(result.xdgMime.detail).toContain('xdg-mime is not installed');
    expect(result.desktopDatabase.status).toBe('absent');
  });

  it('refuses an Exec line without the marker before %u', async () => {
    await expect(registerBatonHandler({ exec: ['/opt/baton/baton'], env })).rejects.toThrow(/--baton-url/);
    expect(existsSync(join(applicationsDir(env), 'baton.desktop'))).toBe(false);
  });

  it('a second fix replaces the entry (the newest build wins)', async () => {
    await registerBatonHandler({ exec: ['/old/baton', '--baton-url'], env });
    const second = await registerBatonHandler({ exec: ['/new/baton', '--baton-url'], env });
    const text = await readFile(second.file, 'utf8');
    expect(text).toContain('Exec=/new/baton --baton-url %u');
    expect(text).not.toContain('/old/');
  });

  it('applicationsDir falls back to ~/.local/share/applications', () => {
    expect(applicationsDir({ HOME: '/home/p' })).toBe('/home/p/.local/share/applications');
    expect(applicationsDir({ HOME: '/home/p', XDG_DATA_HOME: '/x' })).toBe('/x/applications');
  });
});

describe('which build the entry launches', () => {
  it('BATON_DESKTOP_EXEC first, then release/linux-unpacked, then the checkout under its Electron runtime', async () => {
    const exe = join(root, 'my-baton');
    await writeFile(exe, '#!/bin/sh\n');
    await chmod(exe, 0o755);
    expect(resolveDesktopExec(root, existsSync, { BATON_DESKTOP_EXEC: exe })).toEqual({ ok: true, kind: 'unpacked', exec: [exe, '--baton-url'] });
    expect(resolveDesktopExec(root, existsSync, { BATON_DESKTOP_EXEC: join(root, 'nope') })).toMatchObject({ ok: false });

    const repo = join(root, 'repo');
    await mkdir(join(repo, 'release', 'linux-unpacked'), { recursive: true });
    await writeFile(join(repo, 'package.json'), '{}');
    expect(resolveDesktopExec(repo, existsSync, {})).toMatchObject({ ok: false, why: expect.stringContaining('npx electron-builder --linux --dir') });
    await writeFile(join(repo, 'release', 'linux-unpacked', 'baton'), '');
    expect(resolveDesktopExec(repo, existsSync, {})).toEqual({ ok: true, kind: 'unpacked', exec: [join(repo, 'release', 'linux-unpacked', 'baton'), '--baton-url'] });

    // A checkout whose electron package has its runtime (where npm start could fetch it).
    const dev = join(root, 'dev');
    await mkdir(join(dev, 'node_modules', 'electron', 'dist'), { recursive: true });
    await mkdir(join(dev, 'out', 'main'), { recursive: true });
    await writeFile(join(dev, 'package.json'), '{}');
    await writeFile(join(dev, 'node_modules', 'electron', 'package.json'), '{"name":"electron","main":"index.js"}');
    await writeFile(join(dev, 'node_modules', 'electron', 'dist', 'electron'), '');
    await writeFile(join(dev, 'out', 'main', 'index.js'), '');
    expect(resolveDesktopExec(dev, existsSync, {})).toEqual({ ok: true, kind: 'development', exec: [join(dev, 'node_modules', 'electron', 'dist', 'electron'), dev, '--baton-url'] });
  });
});
