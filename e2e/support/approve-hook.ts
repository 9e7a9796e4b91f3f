import { runBaton, type CliRun } from './cli.js';

/** What Claude Code pipes into a PreToolUse hook (the fields `baton approve --hook claude` reads). */
export interface PreToolUseInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}

export interface HookOutput {
  hookSpecificOutput: { hookEventName: string; permissionDecision: 'allow' | 'deny' | 'ask'; permissionDecisionReason: string };
}

/**
 * Runs `baton approve --hook claude` as Claude Code would: a background child with the hook JSON on
 * stdin. The returned promise settles when the hook exits (after a person decides, or at once
 * when no host is running).
 */
export function runApproveHook(home: string, input: PreToolUseInput, waitSeconds = 60): Promise<CliRun> {
  return runBaton(['approve', '--hook', 'claude', '--wait', String(waitSeconds)], { home, input: JSON.stringify(input) });
}

export function parseHookOutput(run: CliRun): HookOutput {
  const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
  if (line === undefined) throw new Error(`no JSON on stdout (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as HookOutput;
}

/** The hook input Claude Code sends for one tool use (Bash unless another tool is given). */
export function preToolUse(sessionId: string, cwd: string, toolUseId: string, toolInput: Record<string, unknown>, toolName = 'Bash'): PreToolUseInput {
  return {
    session_id: sessionId,
    transcript_path: `${cwd}/.claude-transcript.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: toolUseId,
  };
}
