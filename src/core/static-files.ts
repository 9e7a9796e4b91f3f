import { readFileSync, realpathSync, statSync } from 'node:fs';
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

/** The file a request path names inside `root`, or null when it would leave it (before symlinks). */
function requestedPath(root: string, urlPath: string): { base: string; full: string } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : normalize(decoded).replace(/^([/\\])+/, '');
  const base = resolve(root);
  const full = resolve(join(base, relative));
  return inside(base, full) ? { base, full } : null;
}

function contentTypeOf(full: string): string {
  return CONTENT_TYPES[extname(full)] ?? 'application/octet-stream';
}

/**
 * Resolves a request path inside the built renderer and reads it. Anything that would leave the
 * folder (.., encoded separators, absolute paths, a symlink pointing out) is simply not found.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile> {
  const path = requestedPath(root, urlPath);
  if (path === null) return { found: false };
  const { base, full } = path;
  try {
    // The name stays inside; its target must too (a symlink in the folder could point anywhere).
    if (!inside(await realpath(base), await realpath(full))) return { found: false };
    const info = await stat(full);
    if (!info.isFile()) return { found: false };
    return { found: true, body: await readFile(full), contentType: contentTypeOf(full) };
  } catch {
    return { found: false };
  }
}

/**
 * readStaticFile on the calling thread, for files up to `maxBytes` ('too-large' above: read those
 * with readStaticFile). The browser host serves the page's start-up files this way: on a fresh
 * data directory the cold scan queues thousands of stats and reads on libuv's four threads, and an
 * asynchronous read of the entry chunk waited behind them (~330 ms measured); a synchronous read
 * of a few hundred KB from the page cache takes well under a millisecond of this thread.
 */
export function readStaticFileSync(root: string, urlPath: string, maxBytes: number): StaticFile | 'too-large' {
  const path = requestedPath(root, urlPath);
  if (path === null) return { found: false };
  const { base, full } = path;
  try {
    if (!inside(realpathSync(base), realpathSync(full))) return { found: false };
    const info = statSync(full);
    if (!info.isFile()) return { found: false };
    if (info.size > maxBytes) return 'too-large';
    return { found: true, body: readFileSync(full), contentType: contentTypeOf(full) };
  } catch {
    return { found: false };
  }
}

function inside(base: string, full: string): boolean {
  return full === base || full.startsWith(base + sep);
}

/**
 * Files up to this size are read on the host's thread (readStaticFileSync): the page's start-up
 * files (index.html, the ~400 KB entry chunk, its CSS and runtime, the split views) are all below
 * it, so a cold scan's queue of file operations on libuv's threads never delays the first screen.
 * Monaco and its workers (1–7 MB, opened with the Changes tab) stay asynchronous.
 */
export const SYNC_STATIC_MAX_BYTES = 1024 * 1024;

/** A renderer file as both hosts serve it: small ones on this thread, big ones off it. */
export async function readRendererFile(root: string, urlPath: string): Promise<StaticFile> {
  const small = readStaticFileSync(root, urlPath, SYNC_STATIC_MAX_BYTES);
  return small === 'too-large' ? readStaticFile(root, urlPath) : small;
}
