import type { RiskLevel } from '../../../shared/approvals.js';
import type { ToolCall } from '../risk.js';

/**
 * One corpus entry: a tool call and the level it must get, fixed when the entry was written
 * (before the rules were tuned). Paths may use @WS@ (the workspace root) and @HOME@ (the home
 * directory) of the throw-away workspace built by workspace.ts.
 */
export interface CorpusEntry {
  family: string;
  call: ToolCall;
  level: RiskLevel;
  /** Run with cwd = home and workspace root = home (the "cwd=$HOME" probe of issue 10). */
  atHome?: boolean;
}

/**
 * One Bash entry per non-empty line; `⏎` inside a line stands for a newline (heredocs). The lists
 * are String.raw templates, where a backtick and `${` must be escaped: the escape is removed here.
 */
export function bashLines(family: string, level: RiskLevel, lines: string): CorpusEntry[] {
  return lines
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'))
    .map((line) => ({ family, level, call: { tool: 'Bash', input: { command: line.replaceAll('⏎', '\n').replaceAll('\\`', '`').replaceAll('\\${', '${') } } }));
}

export function call(family: string, level: RiskLevel, tool: string, input: Record<string, unknown>, atHome = false): CorpusEntry {
  return { family, level, call: { tool, input }, ...(atHome ? { atHome } : {}) };
}
