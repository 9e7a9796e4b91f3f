import type { Capability } from '../../shared/manifest.js';

/** Modes in which the agent never asks (Claude Code `bypassPermissions`, Codex approval `never`). */
const MODES_THAT_NEVER_ASK: ReadonlySet<string> = new Set(['bypassPermissions', 'never']);

/** Does a session in this permission mode ask a person before acting? Unknown modes ask. */
export function modeAsks(mode: string | null | undefined, sourceMode?: string | null): boolean {
  const approval = sourceMode?.split('/')[0];
  if (approval !== undefined && approval !== '' && approval !== 'unknown') return !MODES_THAT_NEVER_ASK.has(approval);
  return !MODES_THAT_NEVER_ASK.has(mode ?? 'default');
}

export interface CapabilityFacts {
  /** Files of the workspace that differ from HEAD (tracked changes and untracked files). */
  changedFiles: number;
  pendingApprovals: number;
  permissionMode: string | null;
  /** The tool's own mode words (Codex `approval/sandbox`), which decide whether it asks. */
  sourceMode?: string | null;
  tasks: number;
}

/**
 * What the target must be able to show for this session (ARCHITECTURE.md §4 step 4), derived from
 * the session itself: a diff viewer for workspace changes, and a watcher so those changes are
 * checked for drift while they are looked at; the approval UI when something waits for a person
 * or the mode asks; the task panel when tasks exist. The conversation is always needed.
 */
export function deriveCapabilities(facts: CapabilityFacts): Capability[] {
  const out: Capability[] = ['conversation'];
  if (facts.changedFiles > 0) out.push('diff-viewer', 'file-watcher');
  if (facts.pendingApprovals > 0 || modeAsks(facts.permissionMode, facts.sourceMode)) out.push('approval-ui');
  if (facts.tasks > 0) out.push('task-panel');
  return out;
}

/** What each capability is for, in the words the CLI uses when a host lacks it. */
export const CAPABILITY_PURPOSE: Readonly<Record<Capability, string>> = {
  conversation: 'the conversation',
  'diff-viewer': 'the workspace changes (diff viewer)',
  'approval-ui': 'approval requests (approval UI)',
  'task-panel': 'background tasks (task panel)',
  'file-watcher': 'live drift checks of the changed files (file watcher)',
};

/** "cannot show: diff-viewer — the workspace changes (diff viewer)" for a needs-capabilities answer. */
export function describeMissing(missing: readonly string[]): string {
  return missing.map((c) => (Object.hasOwn(CAPABILITY_PURPOSE, c) ? `${c} — ${CAPABILITY_PURPOSE[c as Capability]}` : c)).join('; ');
}
