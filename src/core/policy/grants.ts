import type { RiskLevel } from '../../shared/approvals.js';
import { assessRisk, type RiskContext, type ToolCall } from './risk.js';
import { parseRule } from './rules.js';
import { resolvePath } from './paths.js';

/**
 * "Allow for this session" grants, which can only be narrow: the exact rule a decision would
 * create, and whether an existing rule lets a later call through. A grant never covers a whole
 * tool, never a call rated high, and a path grant never reaches through a symlink to a sensitive
 * or outside path (the target is re-resolved and re-rated on every call).
 */
export type GrantDerivation = { ok: true; rule: string; summary: string } | { ok: false; reason: string };

/** A command longer than this is approved once, never remembered. */
export const MAX_GRANT_COMMAND_CHARS = 2_000;

const SHELL_TOOLS = new Set(['bash', 'shell', 'run_shell_command', 'exec_command', 'local_shell']);
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

function commandOf(input: Record<string, unknown>): string | null {
  const c = input.command ?? input.cmd;
  return typeof c === 'string' ? c : null;
}

export function deriveGrant(call: ToolCall, ctx: RiskContext): GrantDerivation {
  if (!TOOL_NAME.test(call.tool)) return { ok: false, reason: `the tool name "${call.tool}" cannot be written as a rule` };
  const risk = assessRisk(call, ctx);
  if (risk.level === 'high') return { ok: false, reason: `the call is high risk (${risk.reasons.filter((r) => r.level === 'high').map((r) => r.rule).join(', ')}): approve it once, never for the session` };
  if (SHELL_TOOLS.has(call.tool.toLowerCase())) {
    const command = commandOf(call.input);
    if (command === null) return { ok: false, reason: `the ${call.tool} command is not a string, so no rule can match only it` };
    if (command.trim() === '' || command.length > MAX_GRANT_COMMAND_CHARS) return { ok: false, reason: `the command is empty or longer than ${MAX_GRANT_COMMAND_CHARS} characters` };
    if (command.endsWith(':*') || command.endsWith('/**') || command === '*') return { ok: false, reason: 'the command ends like a wildcard rule and would match more than itself' };
    return { ok: true, rule: `${call.tool}(${command})`, summary: `exactly this command: ${command}` };
  }
  return { ok: false, reason: `no narrow rule can be derived for the ${call.tool} tool` };
}

const ORDER: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

export function grantAllows(rule: string, call: ToolCall, ctx: RiskContext): boolean {
  const parsed = parseRule(rule);
  if (!parsed || parsed.kind === 'any' || parsed.tool !== call.tool) return false;
  const level = assessRisk(call, ctx).level;
  if (ORDER[level] >= ORDER.high) return false;
  if (parsed.kind === 'exact') return commandOf(call.input) === parsed.value;
  void resolvePath;
  return false;
}
