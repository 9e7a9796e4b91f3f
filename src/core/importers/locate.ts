import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ImportReader } from './reader.js';
import type { AgentDirs } from './types.js';

/** `~` and `~/x` in an env value mean the user's home, as a shell would expand them. */
function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return isAbsolute(value) ? value : resolve(value);
}

/**
 * Where Claude Code and Codex CLI keep their sessions. HOME comes from `env` (not os.homedir()
 * first) so a test or a caller can point both tools at a fake home.
 */
export function locateAgentDirs(env: NodeJS.ProcessEnv = process.env): AgentDirs {
  const home = resolve(env.HOME || env.USERPROFILE || homedir());
  const claude = env.CLAUDE_CONFIG_DIR ? expandHome(env.CLAUDE_CONFIG_DIR, home) : join(home, '.claude');
  const codex = env.CODEX_HOME ? expandHome(env.CODEX_HOME, home) : join(home, '.codex');
  return { claude, codex };
}

export function claudeProjectsDir(dirs: AgentDirs): string {
  return join(dirs.claude, 'projects');
}

export function codexSessionsDir(dirs: AgentDirs): string {
  return join(dirs.codex, 'sessions');
}

/** True when `path` is `root` or below it (both already resolved, links included). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The tool's folder with links resolved: the boundary the importers never leave. The folder
 * itself may be a link (dotfiles managers do that); what is inside it may not point out.
 * Null when it does not exist or the reader cannot resolve links.
 */
export async function realToolRoot(reader: ImportReader, root: string): Promise<string | null> {
  if (!reader.realpath) return null;
  return reader.realpath(root).catch(() => null);
}
