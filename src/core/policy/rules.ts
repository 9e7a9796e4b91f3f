import { isInside, normalizeAbsolute } from './paths.js';

/**
 * Permission rules in Claude Code's form: `Tool` (every call of the tool) or `Tool(spec)` where
 * spec is `prefix:*` (a command that is `prefix` or starts with `prefix `), `dir/**` (a path
 * inside dir) or an exact command or path. `covers(a, b)` is conservative: when it says true,
 * every call `b` matches is matched by `a`; it may say false when that is true but hard to prove.
 * That is the direction narrowing needs: never keep a rule we cannot prove is allowed by both.
 */
export interface ParsedRule {
  tool: string;
  kind: 'any' | 'prefix' | 'path' | 'exact';
  /** The command prefix, the directory, or the exact value ('' for any). */
  value: string;
}

/** What a rule is matched against: the shell command, or the file path, of one tool call. */
export interface Action {
  tool: string;
  /** The command for shell tools, the path for file tools, '' otherwise. */
  target: string;
  /** For file tools: the path, which must lie inside the policy's roots. */
  path?: string;
}

const RULE = /^([A-Za-z0-9_.:-]+)(?:\((.*)\))?$/s;
/** Chains and substitutions: a prefix rule never stretches over them (`npm test && rm -rf /`). */
const SHELL_OPERATORS = /[;&|`\n<>]|\$\(/;

export function parseRule(rule: string): ParsedRule | null {
  const m = RULE.exec(rule);
  if (!m) return null;
  const tool = m[1]!;
  const spec = m[2];
  if (spec === undefined || spec === '*' || spec === '') return { tool, kind: 'any', value: '' };
  if (spec.endsWith('/**')) return { tool, kind: 'path', value: normalizeAbsolute(spec.slice(0, -3) || '/') };
  if (spec.endsWith(':*')) return { tool, kind: 'prefix', value: spec.slice(0, -2) };
  return { tool, kind: 'exact', value: spec };
}

function prefixMatches(prefix: string, command: string): boolean {
  return !SHELL_OPERATORS.test(command) && (command === prefix || command.startsWith(`${prefix} `));
}

export function ruleMatches(rule: string | ParsedRule, action: Action): boolean {
  const r = typeof rule === 'string' ? parseRule(rule) : rule;
  if (!r || r.tool !== action.tool) return false;
  switch (r.kind) {
    case 'any':
      return true;
    case 'exact':
      return action.target === r.value;
    case 'prefix':
      return prefixMatches(r.value, action.target);
    case 'path':
      return action.target.startsWith('/') && isInside(action.target, r.value);
  }
}

/** True only when every action `b` matches is matched by `a`. */
export function covers(a: string | ParsedRule, b: string | ParsedRule): boolean {
  const ra = typeof a === 'string' ? parseRule(a) : a;
  const rb = typeof b === 'string' ? parseRule(b) : b;
  if (!ra || !rb || ra.tool !== rb.tool) return false;
  if (ra.kind === rb.kind && ra.value === rb.value) return true; // every rule covers itself
  if (ra.kind === 'any') return true;
  if (rb.kind === 'any') return false;
  if (ra.kind === 'exact') return rb.kind === 'exact' && rb.value === ra.value;
  if (ra.kind === 'prefix') {
    if (rb.kind === 'exact') return prefixMatches(ra.value, rb.value);
    if (rb.kind === 'prefix') return !SHELL_OPERATORS.test(rb.value) && (rb.value === ra.value || rb.value.startsWith(`${ra.value} `));
    return false;
  }
  // ra is a path rule
  if (rb.kind === 'path') return isInside(rb.value, ra.value);
  if (rb.kind === 'exact') return rb.value.startsWith('/') && isInside(rb.value, ra.value);
  return false;
}
