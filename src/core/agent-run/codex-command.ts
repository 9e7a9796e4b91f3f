import type { SessionDoc } from '../../shared/session.js';
import { RunRefused } from './claude-command.js';

/**
 * The headless Codex command for one follow-up (verified with 0.169.0):
 *   codex exec resume <id> --json -c sandbox_mode="<sandbox>" -c approval_policy="<policy>" [-m <model>] -- <prompt>
 * Approvals: `codex exec` cannot ask anyone (no terminal, and its PreToolUse hook answers only
 * "deny"; allow and ask are rejected as unsupported; hooks also need persisted trust). So Baton
 * runs it with the session's own sandbox and approval policy, never wider, and says so in the UI:
 * anything that would need an approval is refused by Codex itself.
 */

/** Sandboxes Baton runs Codex with as the session had them; danger-full-access is refused. */
export const CODEX_PASSABLE_SANDBOXES = ['read-only', 'workspace-write'] as const;
export const CODEX_APPROVAL_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'] as const;
/** When the session recorded no sandbox: the narrowest. */
export const CODEX_DEFAULT_SANDBOX = 'read-only';

export const CODEX_APPROVAL_GAP =
  'Codex exec cannot ask for approvals: it runs in this session’s own sandbox and approval policy, and anything that would need an approval is refused by Codex.';

export interface CodexPolicy {
  sandbox: string;
  approval: string | null;
}

/** The session's `approval/sandbox` (sourceMode of an imported Codex session), checked. */
export function codexPolicyOf(session: SessionDoc): CodexPolicy {
  const [approval, sandbox] = (session.permission?.sourceMode ?? '').split('/');
  const chosenSandbox = sandbox && sandbox !== 'unknown' ? sandbox : CODEX_DEFAULT_SANDBOX;
  if (!(CODEX_PASSABLE_SANDBOXES as readonly string[]).includes(chosenSandbox)) {
    throw new RunRefused(`the session's Codex sandbox "${chosenSandbox}" is not one Baton runs Codex with (only ${CODEX_PASSABLE_SANDBOXES.join(', ')}); never bypass`);
  }
  const chosenApproval = approval && (CODEX_APPROVAL_POLICIES as readonly string[]).includes(approval) ? approval : null;
  return { sandbox: chosenSandbox, approval: chosenApproval };
}

export function codexArgs(input: { externalId: string; prompt: string; policy: CodexPolicy; model: string | null }): string[] {
  // `exec resume` takes no -s/--sandbox (0.169.0): the sandbox goes in as a config override.
  const args = ['exec', 'resume', input.externalId, '--json', '-c', `sandbox_mode="${input.policy.sandbox}"`];
  if (input.policy.approval !== null) args.push('-c', `approval_policy="${input.policy.approval}"`);
  if (input.model !== null) args.push('-m', input.model);
  // `--` so a prompt that starts with "-" is never read as a flag.
  args.push('--', input.prompt);
  return args;
}
