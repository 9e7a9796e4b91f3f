import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInside, normalizeAbsolute, resolvePath } from './paths.js';
import { expandBraces } from './words.js';

/**
 * Where a file target really is: `~`, `$HOME`, braces and globs resolved, then `realpath` of the
 * longest prefix that exists (so a symlink inside the workspace that points at ~/.ssh is seen as
 * ~/.ssh), then placed against the workspace root. Also the sensitive list: paths that are high
 * risk to write even inside the workspace, because something runs them or trusts them.
 */
export interface PathContext {
  /** null after `cd $X`: relative paths are then unknown. */
  cwd: string | null;
  /** The workspace root, already real. */
  root: string;
  home?: string;
  tempDirs: readonly string[];
}

export type Place = 'inside' | 'root' | 'above' | 'temp' | 'outside' | 'unknown';

export interface Target {
  place: Place;
  /** The real absolute path, or the word as written when unknown. */
  path: string;
  /** Why the path is sensitive, when it is. */
  sensitive: string | null;
  /** A glob that matches everything in its directory (`*`, `.*`), e.g. `rm -rf *` at the root. */
  globAll: boolean;
}

/**
 * While set, a path is resolved by this function and never against this machine's filesystem:
 * a request from a remote box (`baton ssh`, issue 22) names paths on that box, which its CLI
 * resolved there before asking. Set only for the span of a synchronous assessment.
 */
let remoteResolver: ((abs: string) => string) | null = null;

/** Runs `assess` (synchronous) with paths resolved by `resolve` instead of the local filesystem. */
export function withRemotePaths<T>(resolve: (abs: string) => string, assess: () => T): T {
  const previous = remoteResolver;
  remoteResolver = resolve;
  try {
    return assess();
  } finally {
    remoteResolver = previous;
  }
}

/** True while a remote box's request is being assessed (caches of local realpaths must be bypassed). */
export function resolvingRemotePaths(): boolean {
  return remoteResolver !== null;
}

/** Symlinks followed by hand (dangling ones) before a path counts as unresolvable. */
export const MAX_SYMLINK_HOPS = 40;

/**
 * The real path of `abs`: symlinks followed on the longest prefix that exists. A dangling symlink
 * is followed too (a write through it creates its target, e.g. a link to a missing
 * ~/.ssh/authorized_keys).
 */
export function realpathLongest(abs: string, hops = 0): string {
  if (remoteResolver !== null) return remoteResolver(normalizeAbsolute(abs));
  let head = normalizeAbsolute(abs);
  let tail = '';
  for (let guard = 0; guard < 256; guard++) {
    if (existsSync(head)) {
      try {
        return normalizeAbsolute(`${realpathSync.native(head)}${tail}`);
      } catch {
        return normalizeAbsolute(`${head}${tail}`);
      }
    }
    if (hops < MAX_SYMLINK_HOPS) {
      let link: string | null = null;
      try {
        if (lstatSync(head).isSymbolicLink()) link = readlinkSync(head);
      } catch {
        link = null; // nothing there at all: keep climbing
      }
      if (link !== null) return realpathLongest(`${link.startsWith('/') ? link : `${dirname(head)}/${link}`}${tail}`, hops + 1);
    }
    if (head === '/') break;
    tail = `/${head.slice(head.lastIndexOf('/') + 1)}${tail}`;
    head = dirname(head);
  }
  return normalizeAbsolute(abs);
}

const SENSITIVE: ReadonlyArray<[RegExp, string]> = [
  [/\/\.ssh(\/|$)/, 'SSH keys and config'],
  [/\/authorized_keys2?$/, 'SSH authorized keys (who may log in)'],
  [/\/\.git\/hooks(\/|$)/, 'git hooks, which run on every commit'],
  [/\/\.git\/config$/, "git's config, which can run commands (core.hooksPath, core.fsmonitor, aliases)"],
  [/\/\.husky\/[^/]+$/, 'git hooks (husky), which run on every commit'],
  [/\/\.claude(\/|$)/, "Claude Code's settings and hooks (where the approval hook itself is configured)"],
  [/\/\.codex(\/|$)/, "Codex's settings"],
  [/\/\.gemini\/settings\.json$/, "Gemini CLI's settings"],
  [/\/\.vscode\/tasks\.json$/, "VS Code tasks, which can run on opening the folder"],
  [/\/\.envrc$/, 'direnv runs .envrc on entering the folder'],
  [/\/\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|cshrc|tcshrc|inputrc|xprofile|xinitrc)$/, 'a shell start-up file, run by every new shell'],
  [/\/\.config\/fish\/(config\.fish|conf\.d(\/|$))/, 'a shell start-up file, run by every new shell'],
  [/\/\.(gnupg)(\/|$)/, 'GnuPG keys'],
  [/\/\.aws\/(credentials|config)$/, 'AWS credentials'],
  [/\/\.kube\/config$/, 'Kubernetes credentials'],
  [/\/\.docker\/config\.json$/, 'Docker registry credentials'],
  [/\/\.(netrc|npmrc|pypirc|git-credentials|gitconfig|pgpass)$/, 'a credentials or global config file'],
  [/\/\.config\/(systemd|autostart)(\/|$)/, 'user services that start automatically'],
  [/\/Library\/(LaunchAgents|LaunchDaemons)(\/|$)/, 'launchd jobs that start automatically'],
  [/^\/etc(\/|$)/, 'system configuration'],
  [/^\/var\/spool\/cron(\/|$)|\/crontabs?(\/|$)/, 'crontabs'],
  [/^\/(usr\/)?lib\/systemd(\/|$)/, 'systemd units'],
  [/^\/boot(\/|$)/, 'the boot partition'],
];

/** Secrets: reading them is fine alone, sending them anywhere is exfiltration. */
const SECRET = /(^|\/)(\.ssh(\/|$)|\.aws(\/|$)|id_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.env(\.[\w-]+)?$|\.netrc$|\.npmrc$|\.pypirc$|\.pgpass$|\.git-credentials$|\.kube\/config$|\.docker\/config\.json$|\.gnupg\/|shadow$|\.config\/gh\/hosts\.yml$|\.config\/gcloud\/|\.azure\/|[\w-]*\.(pem|key|p12|pfx)$|credentials(\.json)?$|secrets?(\.\w+)?$)/;

export function sensitiveReason(abs: string): string | null {
  for (const [re, why] of SENSITIVE) if (re.test(abs)) return why;
  return null;
}

export function isSecretPath(p: string): boolean {
  return SECRET.test(p);
}

function expandHome(v: string, home: string | undefined): string | null {
  const m = /^(~|\$HOME|\$\{HOME\})(\/.*)?$/.exec(v);
  if (!m) return v;
  return home ? `${home}${m[2] ?? ''}` : null;
}

function placeOne(value: string, dynamic: boolean, pc: PathContext, follow: boolean): Target {
  const unknown: Target = { place: 'unknown', path: value, sensitive: sensitiveReason(value) ?? (/^~\/\.ssh|^~\/\.\w+rc$/.test(value) ? 'a file in your home' : null), globAll: false };
  const tmp = /^(\$TMPDIR|\$\{TMPDIR\})(\/.*)?$/.exec(value);
  if (tmp && !(tmp[2] ?? '').includes('$')) return { place: 'temp', path: value, sensitive: null, globAll: false };
  let v: string | null = expandHome(value, pc.home);
  if (v === null) return unknown;
  v = v.replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, pc.cwd ?? '$PWD');
  // $HOME and $PWD are the only variables we know; any other `$` leaves the word unknown.
  const known = v !== value && !v.includes('$');
  if ((dynamic && !known) || v.includes('$') || v.startsWith('~') || v.includes('`')) return unknown;
  if (pc.cwd === null && !v.startsWith('/')) return unknown;
  const segments = v.split('/');
  const firstGlob = segments.findIndex((s) => /[*?[]/.test(s));
  const globAll = firstGlob >= 0 && /^[.*?]+$/.test(segments[firstGlob]!) && firstGlob === segments.length - 1;
  const staticPart = firstGlob >= 0 ? segments.slice(0, firstGlob).join('/') || (v.startsWith('/') ? '/' : '.') : v;
  const abs = resolvePath(pc.cwd ?? '/', staticPart);
  // A delete removes the link itself; a write goes through it.
  const real = follow || firstGlob >= 0 || v.endsWith('/') ? realpathLongest(abs) : normalizeAbsolute(`${realpathLongest(dirname(abs))}/${abs.slice(abs.lastIndexOf('/') + 1)}`);
  const sensitive = sensitiveReason(abs) ?? sensitiveReason(real);
  let place: Place;
  if (real === pc.root) place = 'root';
  else if (isInside(real, pc.root)) place = 'inside';
  else if (isInside(pc.root, real)) place = 'above';
  else if (pc.tempDirs.some((t) => isInside(real, t))) place = 'temp';
  else place = 'outside';
  return { place, path: real, sensitive, globAll };
}

/** Every place a word may name (brace expansion gives several). */
export function targetsOf(word: { value: string; dynamic: boolean }, pc: PathContext, follow = true): Target[] {
  const expanded = expandBraces(word.value);
  if (expanded === null) return [{ place: 'unknown', path: word.value, sensitive: null, globAll: false }];
  return expanded.map((v) => placeOne(v, word.dynamic, pc, follow));
}
