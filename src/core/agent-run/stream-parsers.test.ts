import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS, STREAM_OUTPUT_MAX_CHARS, parseClaudeStreamLine } from './claude-stream.js';
import { parseCodexStreamLine } from './codex-stream.js';

/** Lines as Claude Code 2.1.328 and Codex 0.169.0 print them (shortened from real runs against the stand-in model). */
const CLAUDE_TOOL_USE =
  '{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo hi","description":"Run echo hi"}}]},"session_id":"s","uuid":"u1"}';
const CLAUDE_RESULT = '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"hi","is_error":false}]},"session_id":"s","uuid":"u2"}';
const CLAUDE_DENIED = '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"PreToolUse:Bash hook error: denied in Baton","is_error":true,"tool_use_id":"toolu_2"}]},"uuid":"u3"}';
const CLAUDE_TEXT = '{"type":"assistant","message":{"content":[{"type":"text","text":"All done."}]},"uuid":"u4"}';

describe('parseClaudeStreamLine', () => {
  it.each([
    ['a tool call', CLAUDE_TOOL_USE, [{ kind: 'tool-call', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi', description: 'Run echo hi' } }]],
    ['its result', CLAUDE_RESULT, [{ kind: 'tool-result', id: 'toolu_1', output: 'hi', isError: false }]],
    ['a denial from the hook', CLAUDE_DENIED, [{ kind: 'tool-result', id: 'toolu_2', output: 'PreToolUse:Bash hook error: denied in Baton', isError: true }]],
    ['text', CLAUDE_TEXT, [{ kind: 'text', id: 'u4:0', text: 'All done.' }]],
    ['the init line', '{"type":"system","subtype":"init","session_id":"s"}', []],
    ['a blank line', '   ', []],
    ['an error result', '{"type":"result","is_error":true,"subtype":"error_during_execution","errors":["boom"]}', [{ kind: 'error', message: 'Claude Code reported an error: boom' }]],
    ['a broken line', '{"type":"assis', [{ kind: 'error', message: 'stream-json line 7 is not JSON: {"type":"assis' }]],
    ['a JSON array', '[1,2]', [{ kind: 'error', message: 'stream-json line 7 is not an object' }]],
  ])('%s', (_name, line, expected) => {
    expect(parseClaudeStreamLine(line, 7)).toEqual(expected);
  });

  it('clips a long tool output and refuses a runaway line', () => {
    const long = JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'x'.repeat(STREAM_OUTPUT_MAX_CHARS + 10) }] }] } });
    const [event] = parseClaudeStreamLine(long, 1);
    expect(event).toMatchObject({ kind: 'tool-result' });
    expect((event as { output: string }).output).toMatch(/10 more characters/);
    expect(parseClaudeStreamLine(`"${'y'.repeat(MAX_STREAM_LINE_CHARS + 1)}"`, 2)[0]).toMatchObject({ kind: 'error' });
  });
});

describe('parseCodexStreamLine', () => {
  it.each([
    ['an answer', '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Hello."}}', [{ kind: 'text', id: 'item_1', text: 'Hello.' }]],
    ['a command starting', '{"type":"item.started","item":{"id":"item_2","type":"command_execution","command":"ls","status":"in_progress"}}', [{ kind: 'tool-call', id: 'item_2', name: 'exec_command', input: { command: 'ls' } }]],
    [
      'a command failing',
      '{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"touch x","aggregated_output":"Read-only file system","exit_code":1,"status":"failed"}}',
      [{ kind: 'tool-result', id: 'item_2', output: 'Read-only file system', isError: true }],
    ],
    ['a warning item', '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `stand-in` not found."}}', [{ kind: 'error', message: 'Model metadata for `stand-in` not found.' }]],
    ['a failed turn', '{"type":"turn.failed","error":{"message":"stream disconnected"}}', [{ kind: 'error', message: 'Codex reported an error: stream disconnected' }]],
    ['thread.started', '{"type":"thread.started","thread_id":"t"}', []],
    ['a plain warning on stdout', 'WARNING: proceeding, even though …', []],
    ['a broken line', '{"type":', [{ kind: 'error', message: 'codex --json line 3 is not JSON: {"type":' }]],
  ])('%s', (_name, line, expected) => {
    expect(parseCodexStreamLine(line, 3)).toEqual(expected);
  });
});

describe('both parsers, on any input', () => {
  it('never throw and only return events the UI contract accepts', () => {
    const shapes = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ type: fc.constantFrom('assistant', 'user', 'result', 'item.started', 'item.completed', 'turn.failed'), message: fc.anything(), item: fc.anything(), is_error: fc.boolean(), uuid: fc.string() }).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(shapes, fc.nat(), (line, n) => {
        for (const event of [...parseClaudeStreamLine(line, n), ...parseCodexStreamLine(line, n)]) expect(RunEvent.safeParse(event).success).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
