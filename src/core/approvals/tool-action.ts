import { deriveGrant } from '../policy/grants.js';
import type { Action } from '../policy/rules.js';
import { pathsOf, shellCommandOf } from '../policy/tool-shapes.js';

/**
 * How a tool call is seen by the permission rules, and which rule "allow for this session"
 * remembers for it. The rule itself is derived by the policy (src/core/policy/grants.ts): an
 * exact command or a safe command prefix, one real file path, or one web origin; never a tool.
 */
const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read']);

export function actionOf(tool: string, input: Record<string, unknown>): Action {
  const path = FILE_TOOLS.has(tool) ? (pathsOf(input)[0] ?? null) : null;
  if (path !== null) return { tool, target: path, path };
  return { tool, target: shellCommandOf(input)?.command ?? '' };
}

/**
 * The grant rule for a call, or null when no narrow rule exists. Kept for callers that only know
 * the workspace root; `deriveGrant` (with the reason when refused) is the full answer.
 */
export function grantRuleFor(tool: string, input: Record<string, unknown>, workspaceRoot: string): string | null {
  const grant = deriveGrant({ tool, input }, { cwd: workspaceRoot, workspaceRoot });
  return grant.ok ? grant.rule : null;
}
