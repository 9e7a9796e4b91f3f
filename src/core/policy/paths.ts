/**
 * Pure path arithmetic for the risk rules: resolve a path against a cwd and tell whether it lies
 * inside a root. No node:path, so the rules stay pure and behave the same on every OS.
 * POSIX paths are handled as they are. Windows paths (`C:\x`, `C:/x`) are folded to `/c:/x` with
 * forward slashes and a lower-case drive, and compared case-insensitively (NTFS default).
 */
function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

function fold(p: string): string {
  if (!isWindowsPath(p)) return p;
  const forward = p.replace(/\\/g, '/');
  return forward.startsWith('//') ? forward.toLowerCase() : `/${forward.toLowerCase()}`;
}

/** Collapses `.`, `..` and repeated slashes of an absolute path; `..` never climbs above `/`. */
export function normalizeAbsolute(p: string): string {
  const parts: string[] = [];
  for (const part of fold(p).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || isWindowsPath(p);
}

/** `p` against `cwd`; `~` and `~/x` against `home` when given. */
export function resolvePath(cwd: string, p: string, home?: string): string {
  if (home !== undefined && (p === '~' || p.startsWith('~/'))) return normalizeAbsolute(`${home}/${p.slice(1)}`);
  if (isAbsolutePath(p)) return normalizeAbsolute(p);
  return normalizeAbsolute(`${cwd}/${p}`);
}

/** True when `p` is `root` or below it (both absolute). */
export function isInside(p: string, root: string): boolean {
  const a = normalizeAbsolute(p);
  const b = normalizeAbsolute(root);
  if (b === '/') return true;
  return a === b || a.startsWith(`${b}/`);
}
