import { spawn } from 'node:child_process';
import { BATON_BIN, REPO_ROOT, type CliRun } from './cli.js';

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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BATON_BIN, 'approve', '--hook', 'claude', '--wait', String(waitSeconds)], {
      cwd: REPO_ROOT,
      env: { ...process.env, BATON_HOME: home, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

export function parseHookOutput(run: CliRun): HookOutput {
  const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
  if (line === undefined) throw new Error(`no JSON on stdout (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as HookOutput;
}
