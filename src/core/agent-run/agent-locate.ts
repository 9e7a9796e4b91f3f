import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { AgentTool } from '../../shared/agent-run.js';

/** Configured paths win over $PATH: BATON_CLAUDE_BIN, BATON_CODEX_BIN. */
export const AGENT_BIN_ENV: Record<AgentTool, string> = { claude: 'BATON_CLAUDE_BIN', codex: 'BATON_CODEX_BIN' };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The agent's executable: the configured one, else the first on $PATH; null when neither. */
export function locateAgent(tool: AgentTool, env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env[AGENT_BIN_ENV[tool]];
  if (configured) return executable(configured) ? configured : null;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, tool);
    if (executable(candidate)) return candidate;
  }
  return null;
}
