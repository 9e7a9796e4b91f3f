import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureEndpointDir, loadOrCreateToken, readExistingTokenSync, resolveEndpoint, TOKEN_BYTES } from './endpoint.js';
import { isTransportError } from './test-support/is-transport-error.js';
import { needsUser } from '../test-support/needs-user.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'baton-ep-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('resolveEndpoint', () => {
  it('falls back to <dataDir>/run when XDG_RUNTIME_DIR is unset', () => {
    const info = resolveEndpoint('/data/baton', {}, 'linux');
    expect(info).toEqual({ dir: '/data/baton/run', address: '/data/baton/run/baton.sock', tokenPath: '/data/baton/token' });
  });

  it('uses $XDG_RUNTIME_DIR/baton when it is set and absolute', () => {
    const info = resolveEndpoint('/data/baton', { XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux');
    expect(info.dir).toBe('/run/user/1000/baton');
    expect(info.address).toBe('/run/user/1000/baton/baton.sock');
    expect(info.tokenPath).toBe('/data/baton/token');
  });

  it('ignores a relative XDG_RUNTIME_DIR (XDG says it is invalid)', () => {
    expect(resolveEndpoint('/data/baton', { XDG_RUNTIME_DIR: 'run/user' }, 'linux').dir).toBe('/data/baton/run');
  });

  it('never uses the Linux abstract namespace', () => {
    for (const env of [{}, { XDG_RUNTIME_DIR: '/run/user/1' }]) {
      const { address } = resolveEndpoint('/d', env, 'linux');
      expect(address.startsWith('\0')).toBe(false);
      expect(path.isAbsolute(address)).toBe(true);
    }
  });

  it('on win32 makes a random pipe name under the data dir (pure branch only: Windows cannot run here)', () => {
    const first = resolveEndpoint('C:\\Users\\me\\AppData\\Local\\Baton', {}, 'win32');
    expect(first.address).toMatch(/^\\\\\.\\pipe\\baton-[0-9a-f]{32}$/);
    expect(first.dir).toBe('C:\\Users\\me\\AppData\\Local\\Baton\\run');
    expect(first.tokenPath).toBe('C:\\Users\\me\\AppData\\Local\\Baton\\token');
    // No published pipe-name file exists on this machine, so each call draws a fresh name.
    expect(resolveEndpoint('C:\\Users\\me\\AppData\\Local\\Baton', {}, 'win32').address).not.toBe(first.address);
  });
});

describe('ensureEndpointDir', () => {
  it('creates the directory and its parents with mode 0700, owned by us', async () => {
    const dir = path.join(root, 'a', 'b', 'run');
    await ensureEndpointDir(dir);
    const info = await stat(dir);
    expect(info.isDirectory()).toBe(true);
    expect(info.mode & 0o777).toBe(0o700);
    expect(info.uid).toBe(process.getuid?.());
    expect((await stat(path.join(root, 'a'))).mode & 0o777).toBe(0o700);
    await ensureEndpointDir(dir); // idempotent
  });

  it('refuses a symlinked directory, naming the path', async () => {
    const real = path.join(root, 'real');
    await mkdir(real, { mode: 0o700 });
    const link = path.join(root, 'run');
    await symlink(real, link);
    const error = await ensureEndpointDir(link).catch((e: unknown) => e);
    expect(isTransportError(error, 'UNSAFE_ENDPOINT')).toBe(true);
    expect((error as Error).message).toContain(link);
    expect((error as Error).message).toContain('symbolic link');
  });

  it('refuses a directory readable by group or others, with the chmod fix', async () => {
    const dir = path.join(root, 'run');
    await mkdir(dir);
    await chmod(dir, 0o755);
    const error = await ensureEndpointDir(dir).catch((e: unknown) => e);
    expect(isTransportError(error, 'UNSAFE_ENDPOINT')).toBe(true);
    expect((error as Error).message).toContain(`chmod 700 ${dir}`);
  });

  it('refuses a file where the directory should be', async () => {
    const dir = path.join(root, 'run');
    await writeFile(dir, 'x');
    expect(isTransportError(await ensureEndpointDir(dir).catch((e: unknown) => e), 'UNSAFE_ENDPOINT')).toBe(true);
  });

  it('refuses a directory owned by another uid (chown 65534)', async (ctx) => {
    needsUser(ctx, 'root', 'chown to another uid');
    const dir = path.join(root, 'run');
    await mkdir(dir, { mode: 0o700 });
    await chown(dir, 65534, 65534);
    const error = await ensureEndpointDir(dir).catch((e: unknown) => e);
    expect(isTransportError(error, 'UNSAFE_ENDPOINT')).toBe(true);
    expect((error as Error).message).toContain('uid 65534');
  });
});

describe('loadOrCreateToken', () => {
  it('creates 32 random bytes in a 0600 file on first run and returns the same bytes later', async () => {
    const tokenPath = path.join(root, 'data', 'token');
    const first = await loadOrCreateToken(tokenPath);
    expect(first.length).toBe(TOKEN_BYTES);
    const info = await lstat(tokenPath);
    expect(info.mode & 0o777).toBe(0o600);
    expect(info.size).toBe(32);
    expect((await loadOrCreateToken(tokenPath)).equals(first)).toBe(true);
    expect(await readdir(path.dirname(tokenPath))).toEqual(['token']); // no temp file left behind
  });

  it('gives racing first runs one and the same token', async () => {
    const tokenPath = path.join(root, 'token');
    const tokens = await Promise.all(Array.from({ length: 16 }, () => loadOrCreateToken(tokenPath)));
    for (const token of tokens) expect(token.equals(tokens[0] as Buffer)).toBe(true);
    expect(await readdir(root)).toEqual(['token']);
  });

  it('refuses a token readable by group or others', async () => {
    const tokenPath = path.join(root, 'token');
    await writeFile(tokenPath, Buffer.alloc(32, 1), { mode: 0o644 });
    await chmod(tokenPath, 0o644);
    const error = await loadOrCreateToken(tokenPath).catch((e: unknown) => e);
    expect(isTransportError(error, 'BAD_TOKEN')).toBe(true);
    expect((error as Error).message).toContain(tokenPath);
  });

  it('refuses a token that is not exactly 32 bytes', async () => {
    const tokenPath = path.join(root, 'token');
    for (const size of [0, 31, 33]) {
      await writeFile(tokenPath, Buffer.alloc(size, 7), { mode: 0o600 });
      const error = await loadOrCreateToken(tokenPath).catch((e: unknown) => e);
      expect(isTransportError(error, 'BAD_TOKEN')).toBe(true);
      expect((error as Error).message).toContain(`${size} bytes`);
    }
  });

  it('refuses a symlink planted at the token path', async () => {
    const target = path.join(root, 'elsewhere');
    await writeFile(target, Buffer.alloc(32, 2), { mode: 0o600 });
    const tokenPath = path.join(root, 'token');
    await symlink(target, tokenPath);
    expect(isTransportError(await loadOrCreateToken(tokenPath).catch((e: unknown) => e), 'BAD_TOKEN')).toBe(true);
  });
});

describe('readExistingTokenSync', () => {
  /** What the synchronous read gives: the token, null, or the error it throws. */
  const readSync = (tokenPath: string): unknown => {
    try {
      return readExistingTokenSync(tokenPath);
    } catch (error) {
      return error;
    }
  };

  it('reads the token loadOrCreateToken made, and gives null (makes nothing) when there is none', async () => {
    const tokenPath = path.join(root, 'token');
    expect(readSync(tokenPath)).toBeNull();
    expect(await readdir(root)).toEqual([]);
    const made = await loadOrCreateToken(tokenPath);
    expect((readSync(tokenPath) as Buffer).equals(made)).toBe(true);
  });

  it('refuses every token loadOrCreateToken refuses, with the same code and words', async () => {
    const cases: Array<[string, (tokenPath: string) => Promise<void>]> = [
      ['readable by others', async (p) => (await writeFile(p, Buffer.alloc(32, 1), { mode: 0o600 }), await chmod(p, 0o644))],
      ['31 bytes', (p) => writeFile(p, Buffer.alloc(31, 7), { mode: 0o600 })],
      ['33 bytes', (p) => writeFile(p, Buffer.alloc(33, 7), { mode: 0o600 })],
      ['a symlink', async (p) => (await writeFile(`${p}.target`, Buffer.alloc(32, 2), { mode: 0o600 }), await symlink(`${p}.target`, p))],
      ['a directory', (p) => mkdir(p, { mode: 0o700 })],
    ];
    for (const [what, plant] of cases) {
      const tokenPath = path.join(root, what.replace(/ /g, '-'));
      await plant(tokenPath);
      const sync = readSync(tokenPath);
      const async = await loadOrCreateToken(tokenPath).catch((e: unknown) => e);
      expect(isTransportError(sync, 'BAD_TOKEN'), what).toBe(true);
      expect((sync as Error).message, what).toBe((async as Error).message);
    }
  });
});
