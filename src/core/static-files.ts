import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

export type StaticFile = { found: true; body: Buffer; contentType: string } | { found: false };

/**
 * Resolves a request path inside the built renderer and reads it. Anything that would leave the
 * folder (.., encoded separators, absolute paths, a symlink pointing out) is simply not found.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return { found: false };
  }
  if (decoded.includes('\0')) return { found: false };
  const relative = decoded === '/' ? 'index.html' : normalize(decoded).replace(/^([/\\])+/, '');
  const base = resolve(root);
  const full = resolve(join(base, relative));
  if (!inside(base, full)) return { found: false };
  try {
    // The name stays inside; its target must too (a symlink in the folder could point anywhere).
    if (!inside(await realpath(base), await realpath(full))) return { found: false };
    const info = await stat(full);
    if (!info.isFile()) return { found: false };
    return { found: true, body: await readFile(full), contentType: CONTENT_TYPES[extname(full)] ?? 'application/octet-stream' };
  } catch {
    return { found: false };
  }
}

function inside(base: string, full: string): boolean {
  return full === base || full.startsWith(base + sep);
}
