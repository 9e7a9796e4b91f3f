import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageInput } from '../../shared/message.js';
import { readAgentSession } from './read-session.js';
import { scanAgentSessions } from './scan.js';
import { TOOL_OUTPUT_MAX_CHARS } from './limits.js';
import { claude, CLAUDE_SESSION_ID, claudeLogPath, writeLog } from './test-fixtures/build-logs.js';
import { CLAUDE_TITLE, claudeSessionLines } from './test-fixtures/claude-session.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-claude-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('readAgentSession(claude)', () => {
  it('converts a session: merged responses, paired tools, compaction, meta skipped, torn tail counted', async () => {
    const path = await writeLog(claudeLogPath(home, '/home/dev/project', CLAUDE_SESSION_ID), claudeSessionLines());
    const s = await readAgentSession('claude', path, { HOME: home });
    expect(s.externalId).toBe(CLAUDE_SESSION_ID);
    expect(s.title).toBe(CLAUDE_TITLE);
    expect(s.cwd).toBe('/home/dev/project');
    expect(s.branch).toBe('main');
    expect(s.model).toBe('claude-sonnet-4-5');
    expect(s.permissionMode).toBe('acceptEdits');
    expect(s.cliVersion).toBe('2.1.39');
    expect(s.resumeCommand).toBe(`claude --resume ${CLAUDE_SESSION_ID}`);
    expect(s.messages.map((m) => [m.role, m.id])).toEqual([
      ['user', 'u1'],
      ['assistant', 'a1'],
      ['assistant', 'a5'],
      ['system', 'c1'],
      ['system', 's1'],
      ['user', 'u2'],
      ['assistant', 'a6'],
    ]);
    const response = s.messages[1]!;
    expect(response.content).toBe("I'll run the tests.");
    expect(response.toolCalls).toEqual([
      { id: 'toolu_1', name: 'Bash', input: { command: 'npm test' }, output: 'Exit code 2\nFAIL parser.test.ts', exitCode: 2 },
      { id: 'toolu_2', name: 'Read', input: { file_path: '/home/dev/project/parser.ts' }, output: 'export function parse() {}', exitCode: 0 },
    ]);
    expect(s.messages[3]).toMatchObject({ role: 'system', logicalParentUuid: 'a5', compaction: true });
    expect(s.messages[3]!.content).toContain('170251 tokens');
    expect(s.stats).toMatchObject({ lines: 19, tornLines: 1, unknownTypes: 1, danglingParents: 1, compactions: 1, reasoningSkipped: 1, metaLines: 2, danglingToolResults: 0 });
    for (const m of s.messages) expect(MessageInput.safeParse(m).success).toBe(true);
  });

  it('gives the scan the same title, count and fingerprint as the full read', async () => {
    const path = await writeLog(claudeLogPath(home, '/home/dev/project', CLAUDE_SESSION_ID), claudeSessionLines());
    const s = await readAgentSession('claude', CLAUDE_SESSION_ID, { HOME: home });
    const { candidates, stats } = await scanAgentSessions({ env: { HOME: home } });
    expect(candidates).toHaveLength(1);
    const c = candidates[0]!;
    expect(c.path).toBe(path);
    expect(c.title).toBe(s.title);
    expect(c.messageCount).toBe(s.messages.filter((m) => m.role === 'user' || m.role === 'assistant').length);
    expect(c.messageCountExact).toBe(true);
    expect(c.fingerprint).toBe(s.fingerprint);
    expect(c.note).toMatch(/incomplete/);
    expect(stats).toMatchObject({ files: 1, parsed: 1, tornLines: 1, unknownTypes: 1, danglingParents: 1, compactions: 1 });
  });

  it('keeps the fingerprint while a torn line is being completed, and changes it once a new line lands', async () => {
    const lines = claudeSessionLines().slice(0, -1);
    const path = await writeLog(claudeLogPath(home, '/p', CLAUDE_SESSION_ID), lines);
    const before = (await readAgentSession('claude', path, { HOME: home })).fingerprint;
    await writeLog(path, [...lines, '{"parentUuid":"a6","type":"assist']);
    expect((await readAgentSession('claude', path, { HOME: home })).fingerprint).toBe(before);
    await writeLog(path, [...lines, claude.user({ uuid: 'u3', parentUuid: 'a6' }, 'more')]);
    expect((await readAgentSession('claude', path, { HOME: home })).fingerprint).not.toBe(before);
  });

  it('keeps a tool result whose call is missing as a tool message, and skips sidechain lines', async () => {
    const path = await writeLog(claudeLogPath(home, '/p', CLAUDE_SESSION_ID), [
      claude.user({ uuid: 'u1' }, 'go'),
      claude.toolResult({ uuid: 'r9', parentUuid: 'gone' }, 'toolu_gone', 'ok', false, { stdout: 'ok', exitCode: 0 }),
      { ...claude.assistant({ uuid: 'sc1', parentUuid: 'u1' }, 'msg_side', claude.text('sub-agent work')), isSidechain: true },
    ]);
    const s = await readAgentSession('claude', path, { HOME: home });
    expect(s.messages).toHaveLength(2);
    expect(s.messages[1]).toMatchObject({ role: 'tool', toolCallId: 'toolu_gone', content: 'ok', exitCode: 0 });
    expect(s.stats).toMatchObject({ danglingToolResults: 1, sidechainLines: 1, danglingParents: 1 });
  });

  it('keeps long tool output whole up to the limit (the landing trims it with the full text in an artifact), cut with a marker past it', async () => {
    const long = 'x'.repeat(20_000);
    const huge = 'y'.repeat(TOOL_OUTPUT_MAX_CHARS + 5_000);
    const path = await writeLog(claudeLogPath(home, '/p', CLAUDE_SESSION_ID), [
      claude.user({ uuid: 'u1' }, 'go'),
      claude.assistant({ uuid: 'a1', parentUuid: 'u1' }, 'm1', claude.toolUse('t1', 'Bash', { command: 'yes' })),
      claude.toolResult({ uuid: 'r1', parentUuid: 'a1' }, 't1', long, false, { stdout: long }),
      claude.assistant({ uuid: 'a2', parentUuid: 'r1' }, 'm2', claude.toolUse('t2', 'Bash', { command: 'yes y' })),
      claude.toolResult({ uuid: 'r2', parentUuid: 'a2' }, 't2', huge, false, { stdout: huge }),
    ]);
    const messages = (await readAgentSession('claude', path, { HOME: home })).messages;
    expect(messages[1]!.toolCalls![0]!.output).toBe(long);
    const cut = messages[2]!.toolCalls![0]!.output!;
    expect(cut.length).toBeLessThan(TOOL_OUTPUT_MAX_CHARS + 100);
    expect(cut).toMatch(/more characters not imported/);
  });
});
