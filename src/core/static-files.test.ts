import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStaticFile as readStaticFileAsync, readStaticFileSync, type StaticFile } from './static-files.js';

/** A built-renderer folder with a secret beside it: no request may ever read the secret. */
const scratch = await mkdtemp(join(tmpdir(), 'baton-static-'));
const root = join(scratch, 'renderer');
const SECRET = 'the secret beside the renderer';

beforeAll(async () => {
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(scratch, 'secret.txt'), SECRET);
  await mkdir(join(scratch, 'outside'));
  await writeFile(join(scratch, 'outside', 'x.js'), SECRET);
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Baton</title>');
  for (const ext of ['js', 'mjs', 'css', 'json', 'svg', 'png', 'ico', 'woff2', 'ttf', 'map', 'wasm']) await writeFile(join(root, 'assets', `f.${ext}`), ext);
  await writeFile(join(root, 'assets', 'a b.js'), 'spaced');
  await symlink(join(scratch, 'secret.txt'), join(root, 'leak.txt'));
  await symlink(join(scratch, 'outside'), join(root, 'linked-dir'));
  await symlink(join(root, 'index.html'), join(root, 'alias.html'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

// Both readers hold the same folder to the same rules; the synchronous one (the browser host's
// start-up files) below its size limit, which these small files are.
const readers: Array<[string, (root: string, path: string) => Promise<StaticFile>]> = [
  ['readStaticFile', readStaticFileAsync],
  [
    'readStaticFileSync',
    async (dir, path) => {
      const file = readStaticFileSync(dir, path, 1024);
      if (file === 'too-large') throw new Error(`${path} over the test's limit`);
      return file;
    },
  ],
];

describe.each(readers)('%s', (_name, readStaticFile) => {
  const text = async (path: string) => {
    const file = await readStaticFile(root, path);
    return file.found ? file.body.toString() : null;
  };

  it('serves index.html for / and files by path, ignoring the query', async () => {
    expect(await readStaticFile(root, '/')).toMatchObject({ found: true, contentType: 'text/html; charset=utf-8' });
    expect(await text('/assets/f.js?v=3')).toBe('js');
    expect(await text('/assets/a%20b.js')).toBe('spaced');
  });

  it.each([
    ['js', 'text/javascript; charset=utf-8'],
    ['mjs', 'text/javascript; charset=utf-8'],
    ['css', 'text/css; charset=utf-8'],
    ['json', 'application/json'],
    ['svg', 'image/svg+xml'],
    ['png', 'image/png'],
    ['ico', 'image/x-icon'],
    ['woff2', 'font/woff2'],
    ['ttf', 'font/ttf'],
    ['map', 'application/json'],
    ['wasm', 'application/octet-stream'],
  ])('.%s is served as %s', async (ext, type) => {
    expect(await readStaticFile(root, `/assets/f.${ext}`)).toMatchObject({ found: true, contentType: type });
  });

  it.each([
    '/../secret.txt',
    '../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    `/${'../'.repeat(12)}etc/passwd`,
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/%252e%252e%252fsecret.txt',
    '//etc/passwd',
    '/etc/passwd',
    `${scratch}/secret.txt`,
    `/${encodeURIComponent(join(scratch, 'secret.txt'))}`,
    '/index.html%00.js',
    '/%E0%A4%A',
    '/assets',
    '/assets/',
    '/missing.js',
  ])('refuses %j', async (path) => {
    expect(await readStaticFile(root, path)).toEqual({ found: false });
  });

  it('refuses a symlink that points out of the folder, and a folder reached through one', async () => {
    expect(await readStaticFile(root, '/leak.txt')).toEqual({ found: false });
    expect(await readStaticFile(root, '/linked-dir/x.js')).toEqual({ found: false });
  });

  it('serves a symlink that stays inside', async () => {
    expect(await text('/alias.html')).toBe('<!doctype html><title>Baton</title>');
  });

  it('works when the folder itself is reached through a symlink', async () => {
    const link = join(scratch, 'renderer-link');
    await symlink(root, link).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    expect((await readStaticFile(link, '/assets/f.css')).found).toBe(true);
    expect(await readStaticFile(link, '/leak.txt')).toEqual({ found: false });
  });
});

describe('readStaticFileSync limit', () => {
  it("answers 'too-large' above maxBytes (the host reads those asynchronously), and the file at the limit", () => {
    expect(readStaticFileSync(root, '/assets/f.woff2', 4)).toBe('too-large');
    expect(readStaticFileSync(root, '/assets/f.woff2', 5)).toMatchObject({ found: true, contentType: 'font/woff2' });
  });

  it('refuses before the size: an escaping path is not found, never too-large', () => {
    expect(readStaticFileSync(root, '/../secret.txt', 0)).toEqual({ found: false });
    expect(readStaticFileSync(root, '/leak.txt', 0)).toEqual({ found: false });
  });
});
