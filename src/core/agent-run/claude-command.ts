import type { SessionDoc } from '../../shared/session.js';
import { BATON_HOOK_MATCHER, BATON_HOOK_TIMEOUT_S } from '../install/claude-hook-entry.js';

/**
 * The headless Claude Code command for one follow-up (verified with 2.1.328):
 *   claude -p --resume <id> --output-format stream-json --verbose
 *          --settings <json with Baton's PreToolUse hook> [--permission-mode <mode>] [--model <m>] -- <prompt>
 * The hook travels in `--settings` for this run only: the person's settings files are never written.
 * Claude Code calls PreToolUse hooks in print mode too, so every matched tool call asks Baton.
 */

/** Claude Code modes Baton passes on as they are; anything wider (bypassPermissions) is refused. */
export const CLAUDE_PASSABLE_MODES = ['default', 'acceptEdits', 'plan'] as const;
/** Model aliases Claude Code accepts besides a full model name. */
export const CLAUDE_MODEL_ALIASES = ['sonnet', 'opus', 'haiku'] as const;

export class RunRefused extends Error {
  readonly code = 'RUN_REFUSED';
}

export interface ClaudeCommandInput {
  externalId: string;
  prompt: string;
  /** How the hook calls Baton: `<node> <bin/baton.js>` or `baton`. */
  batonCommand: string;
  batonSessionId: string;
  /** The session's permission mode (Claude Code's own word, or Baton's scale). */
  mode: string | null;
  model: string | null;
}

export function claudeHookSettings(batonCommand: string, batonSessionId: string): string {
  const command = `${batonCommand} approve --hook claude --session ${batonSessionId}`;
  return JSON.stringify({ hooks: { PreToolUse: [{ matcher: BATON_HOOK_MATCHER, hooks: [{ type: 'command', command, timeout: BATON_HOOK_TIMEOUT_S }] }] } });
}

export function claudeArgs(input: ClaudeCommandInput): string[] {
  const args = ['-p', '--resume', input.externalId, '--output-format', 'stream-json', '--verbose', '--settings', claudeHookSettings(input.batonCommand, input.batonSessionId)];
  if (input.mode !== null) {
    if (!(CLAUDE_PASSABLE_MODES as readonly string[]).includes(input.mode)) {
      throw new RunRefused(`the session's permission mode "${input.mode}" is not one Baton runs Claude Code with (only ${CLAUDE_PASSABLE_MODES.join(', ')}); never bypass`);
    }
    args.push('--permission-mode', input.mode);
  }
  if (input.model !== null) args.push('--model', input.model);
  // The prompt last, after `--`: a follow-up that starts with "-" is never read as a flag.
  args.push('--', input.prompt);
  return args;
}

/** The permission mode a Claude Code session carries: the tool's own word when recorded, else Baton's. */
export function claudeModeOf(session: SessionDoc): string | null {
  const p = session.permission;
  if (!p) return null;
  return p.sourceMode ?? p.mode;
}
