import { isInside, normalizeAbsolute } from './paths.js';
import { covers, ruleMatches, type Action } from './rules.js';

/**
 * Permissions across a handoff may only narrow: the target gets source ∩ target policy
 * (ARCHITECTURE.md §1). Pure; property-tested in narrow.test.ts with 100,000 runs.
 */
export interface PermissionPolicy {
  /** plan < default < acceptEdits < bypassPermissions; an unknown mode counts as plan. */
  mode: string;
  allow: readonly string[];
  deny: readonly string[];
  /** Directory boundaries for file tools; empty means no file tool may act. */
  roots: readonly string[];
  /** Session-scoped "allow for this session" grants (rules). */
  grants: readonly string[];
}

export const MODE_RANK: Readonly<Record<string, number>> = { plan: 0, default: 1, acceptEdits: 2, bypassPermissions: 3 };
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

export function modeRank(mode: string): number {
  return Object.hasOwn(MODE_RANK, mode) ? MODE_RANK[mode]! : 0;
}

/** Does `policy` let `action` run without asking? */
export function permits(policy: PermissionPolicy, action: Action): boolean {
  if (policy.deny.some((rule) => ruleMatches(rule, action))) return false;
  if (action.path !== undefined && !policy.roots.some((root) => action.path!.startsWith('/') && isInside(action.path!, root))) return false;
  if (READ_ONLY_TOOLS.has(action.tool)) return true;
  const rank = modeRank(policy.mode);
  if (rank === 0) return false;
  if (rank >= 3) return true;
  if (rank >= 2 && EDIT_TOOLS.has(action.tool)) return true;
  return policy.allow.some((rule) => ruleMatches(rule, action)) || policy.grants.some((rule) => ruleMatches(rule, action));
}

/** Rules of `mine` that some rule of `theirs` covers. */
function coveredBy(mine: readonly string[], theirs: readonly string[]): string[] {
  return mine.filter((rule) => theirs.some((other) => covers(other, rule)));
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** Paths inside both a source root and a target root. */
export function intersectRoots(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of a)
    for (const y of b) {
      if (isInside(x, y)) out.push(normalizeAbsolute(x));
      else if (isInside(y, x)) out.push(normalizeAbsolute(y));
    }
  return unique(out);
}

/**
 * The permissions a session keeps after a handoff into a host with `target` policy. The mode is
 * the stricter one, deny rules add up, allow rules and grants survive only where the other side
 * allows at least as much, and the directory boundaries intersect.
 */
export function narrowPermissions(source: PermissionPolicy, target: PermissionPolicy): PermissionPolicy {
  const mode = modeRank(source.mode) <= modeRank(target.mode) ? source.mode : target.mode;
  const sourceAllowed = [...source.allow, ...source.grants];
  const targetAllowed = [...target.allow, ...target.grants];
  return {
    mode: Object.hasOwn(MODE_RANK, mode) ? mode : 'plan',
    allow: unique([...coveredBy(source.allow, targetAllowed), ...coveredBy(target.allow, sourceAllowed)]),
    deny: unique([...source.deny, ...target.deny]),
    roots: intersectRoots(source.roots, target.roots),
    grants: unique([...coveredBy(source.grants, targetAllowed), ...coveredBy(target.grants, sourceAllowed)]),
  };
}

/**
 * Reads Baton's stored PermissionState (`{mode, rules}`) where each rule is `allow:<rule>`,
 * `deny:<rule>`, `root:<dir>` or `grant:<rule>`; a bare rule counts as allow.
 */
export function policyFromState(state: { mode: string; rules?: readonly string[] } | null | undefined, fallbackRoot: string): PermissionPolicy {
  const policy = { mode: state?.mode ?? 'default', allow: [] as string[], deny: [] as string[], roots: [] as string[], grants: [] as string[] };
  for (const rule of state?.rules ?? []) {
    const m = /^(allow|deny|root|grant):(.*)$/s.exec(rule);
    const kind = m?.[1] ?? 'allow';
    const value = m?.[2] ?? rule;
    if (kind === 'deny') policy.deny.push(value);
    else if (kind === 'root') policy.roots.push(normalizeAbsolute(value));
    else if (kind === 'grant') policy.grants.push(value);
    else policy.allow.push(value);
  }
  if (policy.roots.length === 0) policy.roots.push(normalizeAbsolute(fallbackRoot));
  return policy;
}

export function policyToState(policy: PermissionPolicy): { mode: string; rules: string[] } {
  return {
    mode: policy.mode,
    rules: [...policy.allow.map((r) => `allow:${r}`), ...policy.deny.map((r) => `deny:${r}`), ...policy.roots.map((r) => `root:${r}`), ...policy.grants.map((r) => `grant:${r}`)],
  };
}
