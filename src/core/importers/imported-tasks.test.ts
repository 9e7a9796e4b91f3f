import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLine } from './lines.js';
import { ClaudeTaskScanner, MAX_IMPORTED_TASKS } from './claude-tasks.js';
import { CodexTaskScanner } from './codex-tasks.js';
import { readAgentSession } from './read-session.js';

/**
 * Background tasks from imported logs. The lines are the REAL sample lines of
 * ../shared/fixtures/agent-logs (read in place), changed only where a background call needs it.
 */
const SAMPLES = join(resolve(import.meta.dirname, '../../..'), '..', 'shared', 'fixtures', 'agent-logs');
type Json = Record<string, any>;
const sample = (file: string) => readFileSync(join(SAMPLES, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);
const claudeLines = sample('claude-code-session.sample.jsonl');
const codexLines = sample('codex-rollout.sample.jsonl');
const toolUse = claudeLines[3]!; // assistant tool_use (Bash)
const toolResult = claudeLines[4]!; // user tool_result answering it

/** An assistant line calling `name` with `input`, shaped exactly like the sample's tool_use line. */
function claudeCall(id: string, name: string, input: Json): Json {
  const line = structuredClone(toolUse);
  line.uuid = `u-${id}`;
  line.message.id = `msg-${id}`;
  line.message.content = [{ ...line.message.content[0], id, name, input }];
  return line;
}
function claudeResult(id: string, text: string, toolUseResult: Json, isError = false): Json {
  const line = structuredClone(toolResult);
  line.uuid = `r-${id}`;
  line.message.content = [{ tool_use_id: id, type: 'tool_result', content: text, is_error: isError }];
  line.toolUseResult = toolUseResult;
  return line;
}
function codexCall(callId: string, name: string, args: Json): Json {
  return { timestamp: '2026-02-23T11:41:00.000Z', type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId } };
}
function codexOutput(callId: string, output: string): Json {
  return { timestamp: '2026-02-23T11:41:01.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output } };
}
const feed = <S extends { feed(l: ReturnType<typeof parseLine>): void }>(scanner: S, lines: Json[]) => {
  for (const l of lines) {
    const text = JSON.stringify(l);
    scanner.feed(parseLine(text, 0, text.length, true));
  }
  return scanner;
};

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-imported-tasks-'));
});
afterAll(async () => rm(tmp, { recursive: true, force: true }));

describe('Claude Code background shells', () => {
  it('the real sample has no background shell: no task', () => {
    expect(feed(new ClaudeTaskScanner(), claudeLines).result()).toEqual([]);
  });

  it('lists a run_in_background Bash call with its shell id, follows BashOutput, and a KillShell marks it killed', () => {
    const lines = [
      claudeCall('t1', 'Bash', { command: 'npm run dev', run_in_background: true, description: 'dev server' }),
      claudeResult('t1', 'Command running in background with ID: bash_1', { stdout: '', stderr: '', interrupted: false }),
      claudeCall('t2', 'Bash', { command: 'npm run watch', run_in_background: true }),
      claudeResult('t2', 'Command running in background with ID: bash_2', { backgroundTaskId: 'bash_2' }),
      claudeCall('t3', 'BashOutput', { bash_id: 'bash_1' }),
      claudeResult('t3', '<status>running</status>\n<stdout>ready on :5173</stdout>', {}),
      claudeCall('t4', 'KillShell', { shell_id: 'bash_2' }),
      claudeResult('t4', 'Successfully killed shell: bash_2 (npm run watch)', {}),
      claudeCall('t5', 'Bash', { command: 'ls' }), // not in the background: an ordinary call
      claudeResult('t5', 'a\nb', {}),
    ];
    const tasks = feed(new ClaudeTaskScanner(), lines).result();
    expect(tasks).toEqual([
      expect.objectContaining({ id: 'claude-shell-bash_1', kind: 'background-shell', command: 'npm run dev', pid: null, recoverable: false, state: 'running', origin: 'claude', cwd: toolUse.cwd }),
      expect.objectContaining({ id: 'claude-shell-bash_2', command: 'npm run watch', state: 'killed' }),
    ]);
    expect(tasks[0]!.notes).toEqual([expect.stringMatching(/^still running at 2026-/)]);
  });

  it('a shell whose output says completed with exit code 1 is failed; a refused kill keeps it running', () => {
    const tasks = feed(new ClaudeTaskScanner(), [
      claudeCall('a', 'Bash', { command: 'make test', run_in_background: true }),
      claudeResult('a', 'Command running in background with ID: shell_a', {}),
      claudeCall('b', 'Bash', { command: 'sleep 999', run_in_background: true }),
      claudeResult('b', 'Command running in background with ID: shell_b', {}),
      claudeCall('c', 'BashOutput', { bash_id: 'shell_a' }),
      claudeResult('c', '<status>completed</status>\n<exit_code>1</exit_code>', {}),
      claudeCall('d', 'KillBash', { shell_id: 'shell_b' }),
      claudeResult('d', 'No shell found', {}, true),
    ]).result();
    expect(tasks.map((t) => [t.id, t.state])).toEqual([
      ['claude-shell-shell_a', 'failed'],
      ['claude-shell-shell_b', 'running'],
    ]);
  });

  it('never throws and never lists more than the limit, whatever the lines (fast-check)', () => {
    const block = fc.record({ id: fc.constantFrom('x', 'y', 'z'), name: fc.constantFrom('Bash', 'KillShell', 'BashOutput', 'Read'), input: fc.dictionary(fc.constantFrom('command', 'run_in_background', 'bash_id', 'shell_id'), fc.oneof(fc.string(), fc.boolean(), fc.constant('x'))) });
    fc.assert(
      fc.property(fc.array(fc.oneof(block.map((b) => claudeCall(b.id, b.name, b.input)), fc.tuple(fc.constantFrom('x', 'y', 'z'), fc.string()).map(([id, t]) => claudeResult(id, t, {})), fc.anything().map((v) => ({ v }) as Json))), (lines) => {
        const tasks = feed(new ClaudeTaskScanner(), lines).result();
        expect(tasks.length).toBeLessThanOrEqual(MAX_IMPORTED_TASKS);
        for (const t of tasks) expect(['running', 'killed', 'failed', 'completed']).toContain(t.state);
      }),
      { numRuns: 500 },
    );
  });

  it('readAgentSession carries the shells of a real-shaped transcript', async () => {
    const file = join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
    const lines = [...claudeLines, claudeCall('bg', 'Bash', { command: 'python -m http.server 8000', run_in_background: true }), claudeResult('bg', 'Command running in background with ID: bash_9', {})];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const imported = await readAgentSession('claude', file);
    expect(imported.tasks).toEqual([expect.objectContaining({ id: 'claude-shell-bash_9', command: 'python -m http.server 8000', state: 'running' })]);
  });
});

describe('Codex exec sessions', () => {
  it('the real sample rollout has no long-running exec session', () => {
    expect(feed(new CodexTaskScanner(), codexLines).result()).toEqual([]);
  });

  it('an exec_command still running is listed; write_stdin follows it to its exit; a finished one is not a task', () => {
    const tasks = feed(new CodexTaskScanner(), [
      codexLines[4]!, // the real turn_context: its cwd is the task's cwd
      codexCall('c1', 'exec_command', { cmd: 'npm run dev', yield_time_ms: 1000 }),
      codexOutput('c1', 'Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\nready'),
      codexCall('c2', 'exec_command', { cmd: ['bash', '-lc', 'cargo watch'], workdir: '/w/proj' }),
      codexOutput('c2', 'Process running with session ID 8\nOutput:\n'),
      codexCall('c3', 'exec_command', { cmd: 'ls' }),
      codexOutput('c3', 'Process exited with code 0\nOutput:\na b'),
      codexCall('c4', 'write_stdin', { session_id: 8, chars: '\u0003' }),
      codexOutput('c4', 'Process exited with code 130\nOutput:\n'),
      codexCall('c5', 'write_stdin', { session_id: 7, chars: '' }),
      codexOutput('c5', 'Process running with session ID 7\nOutput:\n'),
    ]).result();
    expect(tasks).toEqual([
      expect.objectContaining({ id: 'codex-exec-7', kind: 'exec-session', command: 'npm run dev', pid: null, state: 'running', origin: 'codex', cwd: codexLines[4]!.payload.cwd }),
      expect.objectContaining({ id: 'codex-exec-8', command: 'bash -lc cargo watch', cwd: '/w/proj', state: 'failed', notes: [expect.stringContaining('exited with code 130')] }),
    ]);
  });

  it('readAgentSession carries the exec sessions of a real-shaped rollout', async () => {
    const file = join(tmp, 'rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl');
    const lines = [...codexLines, codexCall('bg', 'exec_command', { cmd: 'npm run dev' }), codexOutput('bg', 'Process running with session ID 3\nOutput:\nready')];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const imported = await readAgentSession('codex', file);
    expect(imported.tasks).toEqual([expect.objectContaining({ id: 'codex-exec-3', command: 'npm run dev', state: 'running', origin: 'codex' })]);
    expect(imported.codexPermission).toMatchObject({ sourceMode: 'on-request/workspace-write' });
  });

  it('never throws, and lists only sessions it saw running, whatever the items (fast-check)', () => {
    const id = fc.constantFrom('c1', 'c2', 'c3');
    const item = fc.oneof(
      fc.tuple(id, fc.constantFrom('exec_command', 'write_stdin', 'shell'), fc.oneof(fc.record({ cmd: fc.oneof(fc.string(), fc.array(fc.string())) }), fc.record({ session_id: fc.oneof(fc.nat(3), fc.string()) }))).map(([c, n, a]) => codexCall(c, n, a)),
      fc.tuple(id, fc.oneof(fc.string(), fc.nat(3).map((n) => `Process running with session ID ${n}`), fc.integer().map((n) => `Process exited with code ${n}`))).map(([c, o]) => codexOutput(c, o)),
      fc.anything().map((v) => ({ type: 'response_item', payload: v }) as Json),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (lines) => {
        const tasks = feed(new CodexTaskScanner(), lines).result();
        for (const t of tasks) {
          expect(t.id).toMatch(/^codex-exec-\d+$/);
          expect(['running', 'exited', 'failed']).toContain(t.state);
          expect(t.pid).toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });
});
