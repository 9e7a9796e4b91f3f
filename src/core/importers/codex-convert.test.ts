import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageInput } from '../../shared/message.js';
import { codexOutput } from './codex-format.js';
import { readAgentSession } from './read-session.js';
import { scanAgentSessions } from './scan.js';
import { codex, CODEX_SESSION_ID, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-codex-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function codexSessionLines(): unknown[] {
  return [
    codex.meta(),
    codex.tokenCount(),
    codex.message('developer', '<permissions instructions>approvals: on-request</permissions instructions>'),
    codex.message('user', '<environment_context>\n  <cwd>/home/dev/api</cwd>\n</environment_context>'),
    codex.message('user', '# AGENTS.md instructions for /home/dev/api\n\nUse pnpm.'),
    codex.turnContext(),
    codex.message('user', 'Add pagination to /users'),
    codex.userEvent('Add pagination to /users'),
    codex.reasoning(),
    codex.call('c1', 'shell', { command: ['bash', '-lc', 'npm test'] }),
    codex.output('c1', JSON.stringify({ output: 'ok', metadata: { exit_code: 0, duration_seconds: 0.4 } })),
    codex.call('c2', 'exec_command', { cmd: 'npm run lint' }),
    codex.execEnd('c2', 3),
    codex.output('c2', 'lint found 3 problems'),
    codex.call('c3', 'exec_command', { cmd: 'false' }),
    codex.output('c3', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nboom'),
    codex.message('assistant', 'Pagination added.'),
    { timestamp: '2026-11-01T11:00:00.000Z', type: 'mystery', payload: {} },
    codex.compacted('Summary: pagination added, tests pass.'),
    codex.turnContext('gpt-5.1-codex', 'never', 'danger-full-access'),
    codex.message('user', 'Now document it'),
    codex.output('c-gone', 'orphan output'),
    '{"timestamp":"2026-11-01T12:00:00.000Z","type":"response_item","payload":{"type":"mess',
  ];
}

describe('readAgentSession(codex)', () => {
  it('converts a rollout: instructions skipped, tool calls grouped and paired with exit codes, compaction kept', async () => {
    const path = await writeLog(codexLogPath(join(home, '.codex'), CODEX_SESSION_ID), codexSessionLines());
    const s = await readAgentSession('codex', path, { HOME: home });
    expect(s).toMatchObject({
      externalId: CODEX_SESSION_ID,
      cwd: '/home/dev/api',
      branch: 'feature/x',
      model: 'gpt-5.1-codex',
      permissionMode: 'never/danger-full-access',
      cliVersion: '0.77.0',
      title: 'Add pagination to /users',
      resumeCommand: `codex resume ${CODEX_SESSION_ID}`,
    });
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'system', 'user', 'tool']);
    expect(s.messages[1]!.toolCalls).toEqual([
      { id: 'c1', name: 'shell', input: { command: ['bash', '-lc', 'npm test'] }, output: 'ok', exitCode: 0 },
      { id: 'c2', name: 'exec_command', input: { cmd: 'npm run lint' }, output: 'lint found 3 problems', exitCode: 3 },
      { id: 'c3', name: 'exec_command', input: { cmd: 'false' }, output: 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nboom', exitCode: 1 },
    ]);
    expect(s.messages[1]!.model).toBe('gpt-5-codex');
    expect(s.messages[2]).toMatchObject({ role: 'assistant', content: 'Pagination added.' });
    expect(s.messages[3]!.content).toContain('Summary: pagination added');
    expect(s.messages[5]).toMatchObject({ role: 'tool', toolCallId: 'c-gone', content: 'orphan output' });
    expect(s.stats).toMatchObject({ lines: 23, tornLines: 1, unknownTypes: 1, compactions: 1, reasoningSkipped: 1, metaLines: 3, danglingToolResults: 1 });
    for (const m of s.messages) expect(MessageInput.safeParse(m).success).toBe(true);
  });

  it('agrees with the scan on title, message count and fingerprint; CODEX_HOME is honoured', async () => {
    const codexHome = join(home, 'elsewhere');
    await writeLog(codexLogPath(codexHome, CODEX_SESSION_ID), codexSessionLines());
    const env = { HOME: home, CODEX_HOME: codexHome };
    const s = await readAgentSession('codex', CODEX_SESSION_ID, env);
    const { candidates, stats } = await scanAgentSessions({ env });
    expect(candidates).toHaveLength(1);
    const c = candidates[0]!;
    expect(c).toMatchObject({ source: 'codex', externalId: CODEX_SESSION_ID, title: s.title, cwd: '/home/dev/api', branch: 'feature/x', model: 'gpt-5.1-codex', cliVersion: '0.77.0' });
    expect(c.messageCount).toBe(s.messages.filter((m) => m.role === 'user' || m.role === 'assistant').length);
    expect(c.fingerprint).toBe(s.fingerprint);
    expect(stats).toMatchObject({ files: 1, parsed: 1, tornLines: 1, unknownTypes: 1, compactions: 1 });
    // Without CODEX_HOME the fake HOME's ~/.codex is empty.
    expect((await scanAgentSessions({ env: { HOME: home } })).candidates).toHaveLength(0);
  });

  it('reads exit codes from each output form Codex has written', () => {
    expect(codexOutput(JSON.stringify({ output: 'x', metadata: { exit_code: 7 } }))).toEqual({ text: 'x', exitCode: 7 });
    expect(codexOutput('Exit code: 0\nOutput:\nfine')).toMatchObject({ exitCode: 0 });
    expect(codexOutput('Process exited with code 127\n')).toMatchObject({ exitCode: 127 });
    expect(codexOutput('{not json')).toEqual({ text: '{not json', exitCode: null });
    expect(codexOutput(undefined)).toEqual({ text: '', exitCode: null });
  });
});
