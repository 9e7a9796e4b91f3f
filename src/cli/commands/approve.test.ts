import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalService, type ApprovalService } from '../../core/approvals/approval-service.js';
import { removeDir, startMethodsEndpoint, tempDataDir, until, type MethodsEndpoint } from '../../core/tasks/test-support/endpoint.js';

/**
 * The Claude Code bridge end to end: the real CLI in a real process, real-shaped PreToolUse hook
 * input on stdin, a real endpoint server with the approval service; a person's decision is made
 * through the service (the UI's call), and the printed hook output is checked byte for byte.
 */
const APPROVE_CLI = join(import.meta.dirname, '..', 'run.ts');
let dataDir: string;
let service: ApprovalService | null;
let host: MethodsEndpoint | null;

function hookInput(command: string, toolUseId = 'toolu_01ABCdef'): Record<string, unknown> {
  return {
    session_id: '9f2c1a4e-6b7d-4e8f-9a0b-1c2d3e4f5a6b',
    transcript_path: '/home/u/.claude/projects/-home-u-proj/9f2c1a4e-6b7d-4e8f-9a0b-1c2d3e4f5a6b.jsonl',
    cwd: '/home/u/proj',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'run it' },
    tool_use_id: toolUseId,
  };
}

function run(args: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', APPROVE_CLI, 'approve', ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin!.end(stdin);
  });
}

async function startHost(timeoutMs?: number): Promise<void> {
  service = createApprovalService({ dataDir, ...(timeoutMs ? { timeoutMs } : {}) });
  host = await startMethodsEndpoint(dataDir, service.methods);
}

beforeEach(async () => {
  dataDir = await tempDataDir('baton-approve-');
  service = null;
  host = null;
});
afterEach(async () => {
  await host?.dispose();
  await service?.close();
  await removeDir(dataDir);
});

describe('baton approve --hook claude', () => {
  it('prints allow after the person approves in the desktop', async () => {
    await startHost();
    const pending = run(['--hook', 'claude'], JSON.stringify(hookInput('npm test')));
    await until(() => service!.listPending().length === 1, 'the request to reach the desktop', 20_000);
    const view = service!.listPending()[0]!;
    expect(view.request).toMatchObject({ requestId: 'toolu_01ABCdef', tool: 'Bash', cwd: '/home/u/proj', client: 'claude' });
    await service!.decide('toolu_01ABCdef', { decision: 'approve', reason: 'looks fine' });
    const out = await pending;
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"Approved in Baton (user): looks fine"}}\n');
  });

  it('prints deny after the person denies; a high-risk approval needs the second confirmation', async () => {
    await startHost();
    const pending = run(['--hook', 'claude'], JSON.stringify(hookInput('git push --force origin main', 'toolu_02')));
    await until(() => service!.listPending().length === 1, 'the request', 20_000);
    expect(service!.listPending()[0]!.request.risk.level).toBe('high');
    await expect(service!.decide('toolu_02', { decision: 'approve' })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    await service!.decide('toolu_02', { decision: 'deny', reason: 'never force-push main' });
    const out = JSON.parse((await pending).stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Denied in Baton (user): never force-push main' });
  });

  it('the same tool use asked again (a retried hook) gets the recorded decision without a new prompt', async () => {
    await startHost();
    const first = run(['--hook', 'claude'], JSON.stringify(hookInput('npm run lint', 'toolu_03')));
    await until(() => service!.listPending().length === 1, 'the request', 20_000);
    await service!.decide('toolu_03', { decision: 'approve' });
    await first;
    const again = await run(['--hook', 'claude'], JSON.stringify(hookInput('npm run lint', 'toolu_03')));
    expect(JSON.parse(again.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(service!.listPending()).toEqual([]);
  });

  it('when nobody decides in time, the desktop denies (recorded) and the hook prints deny', async () => {
    await startHost(500);
    const out = await run(['--hook', 'claude'], JSON.stringify(hookInput('make deploy', 'toolu_04')));
    expect(JSON.parse(out.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('timeout') });
  });

  it('no desktop at all → ask (never a silent allow)', async () => {
    const out = await run(['--hook', 'claude'], JSON.stringify(hookInput('rm -rf node_modules')));
    expect(out.code).toBe(0);
    const parsed = JSON.parse(out.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(parsed.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(parsed.hookSpecificOutput.permissionDecisionReason).toContain('asking here instead');
  });

  it('a desktop that ran once but is gone now (token, no socket) → ask', async () => {
    await startHost();
    await host!.dispose();
    host = null;
    const out = await run(['--hook', 'claude'], JSON.stringify(hookInput('ls')));
    expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });

  it('garbage or a non-PreToolUse input → ask', async () => {
    await startHost();
    for (const input of ['not json', JSON.stringify({ ...hookInput('ls'), hook_event_name: 'PostToolUse' }), JSON.stringify({ tool_name: 'Bash' })]) {
      const out = await run(['--hook', 'claude'], input);
      expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    }
    expect(service!.listPending()).toEqual([]);
  });
});

describe('replay across clients (real CLI processes)', () => {
  it('replay: a hook approval without tool_use_id is not replayed to the same call from --json, nor to the hook again', async () => {
    await startHost();
    const { tool_use_id: _omitted, ...noId } = hookInput('npm run build');
    const first = run(['--hook', 'claude'], JSON.stringify(noId));
    await until(() => service!.listPending().length === 1, 'the hook request', 20_000);
    await service!.decide(service!.listPending()[0]!.request.requestId, { decision: 'approve' });
    expect(JSON.parse((await first).stdout).hookSpecificOutput.permissionDecision).toBe('allow');

    const json = { tool: 'Bash', input: { command: 'npm run build', description: 'run it' }, cwd: '/home/u/proj', sessionId: noId.session_id };
    const fromJson = run(['--json'], JSON.stringify(json));
    await until(() => service!.listPending().length === 1, 'a new request from --json', 20_000);
    const again = run(['--hook', 'claude'], JSON.stringify(noId));
    await until(() => service!.listPending().length === 2, 'a new request from the hook', 20_000);
    const [a, b] = service!.listPending();
    expect(a!.request.groupKey).toBe(b!.request.groupKey); // the same call, grouped for display
    for (const view of service!.listPending()) await service!.decide(view.request.requestId, { decision: 'deny' });
    expect(JSON.parse((await fromJson).stdout)).toMatchObject({ decision: 'deny' });
    expect(JSON.parse((await again).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('baton approve --json (other agents)', () => {
  it('approve → exit 0 with decision allow; no desktop → exit 11 with ask', async () => {
    await startHost();
    const input = { tool: 'shell', input: { command: ['bash', '-lc', 'cargo test'] }, cwd: '/home/u/proj', sessionId: 'codex-session-1', requestId: 'call_1', client: 'codex' };
    const pending = run(['--json'], JSON.stringify(input));
    await until(() => service!.listPending().length === 1, 'the request', 20_000);
    await service!.decide('call_1', { decision: 'approve' });
    const out = await pending;
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ version: 1, command: 'approve', ok: true, decision: 'allow', requestId: 'call_1' });
    await host!.dispose();
    host = null;
    const offline = await run(['--json'], JSON.stringify({ ...input, requestId: 'call_2' }));
    expect(offline.code).toBe(11);
    expect(JSON.parse(offline.stdout)).toMatchObject({ decision: 'ask' });
  });
});
