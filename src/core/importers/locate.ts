import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
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
