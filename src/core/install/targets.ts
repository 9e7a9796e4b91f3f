import { join, resolve } from 'node:path';
import { locateAgentDirs } from '../importers/locate.js';

export const INSTALL_AGENTS = ['claude', 'codex'] as const;
export type InstallAgent = (typeof INSTALL_AGENTS)[number];
export type InstallScope = 'user' | 'project';

/** The files `baton install <agent>` manages for one scope. */
export interface InstallTarget {
  agent: InstallAgent;
  scope: InstallScope;
  /** The `/handoff` command (Claude Code) or custom prompt (Codex). */
  commandFile: string;
  /** Claude Code's settings.json that holds the approval hook; Codex has none (see docs/install.md). */
  settingsFile: string | null;
}

export class InstallTargetError extends Error {
  readonly code = 'UNSUPPORTED_SCOPE';
}

/**
 * User scope: $CLAUDE_CONFIG_DIR (or ~/.claude) and $CODEX_HOME (or ~/.codex), resolved the way
 * the importers resolve them. Project scope: <project>/.claude. Codex reads custom prompts only
 * from $CODEX_HOME/prompts, so it has no project scope.
 */
export function resolveInstallTarget(agent: InstallAgent, scope: InstallScope, projectDir: string, env: NodeJS.ProcessEnv = process.env): InstallTarget {
  const dirs = locateAgentDirs(env);
  if (agent === 'claude') {
    const base = scope === 'project' ? join(resolve(projectDir), '.claude') : dirs.claude;
    return { agent, scope, commandFile: join(base, 'commands', 'handoff.md'), settingsFile: join(base, 'settings.json') };
  }
  if (scope === 'project') throw new InstallTargetError(`Codex reads custom prompts only from ${join(dirs.codex, 'prompts')}; install it without --project`);
  return { agent, scope, commandFile: join(dirs.codex, 'prompts', 'handoff.md'), settingsFile: null };
}
