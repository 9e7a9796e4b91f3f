import type { Action } from '../policy/rules.js';
import { quoteWords } from '../policy/shell-parse.js';

/**
 * How a tool call is seen by the permission rules, and which rule "allow for this session"
 * remembers for it. Shell calls are remembered exactly (the same command line, nothing wider);
 * file tools for paths inside the workspace (writes outside it are high risk and never granted).
 */
const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read']);

function commandOf(input: Record<string, unknown>): string | null {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return quoteWords(c as string[]);
  return null;
}

function pathOf(input: Record<string, unknown>): string | null {
  for (const key of ['file_path', 'notebook_path', 'path']) if (typeof input[key] === 'string') return input[key] as string;
  return null;
}

export function actionOf(tool: string, input: Record<string, unknown>): Action {
  const path = FILE_TOOLS.has(tool) ? pathOf(input) : null;
  if (path !== null) return { tool, target: path, path };
  return { tool, target: commandOf(input) ?? '' };
}

/** The grant rule for a call, or null when it cannot be written as a rule that matches only it. */
export function grantRuleFor(tool: string, input: Record<string, unknown>, workspaceRoot: string): string | null {
  if (!/^[A-Za-z0-9_.:-]+$/.test(tool)) return null;
  if (FILE_TOOLS.has(tool) && pathOf(input) !== null) return `${tool}(${workspaceRoot.replace(/\/+$/, '')}/**)`;
  const command = commandOf(input);
  if (command === null) return tool;
  // These endings would turn an exact rule into a prefix or path rule: wider than what was approved.
  if (command === '' || command === '*' || command.endsWith(':*') || command.endsWith('/**')) return null;
  return `${tool}(${command})`;
}
