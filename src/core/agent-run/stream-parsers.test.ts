import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS, STREAM_OUTPUT_MAX_CHARS, parseClaudeStreamLine } from './claude-stream.js';
import { parseCodexStreamLine } from './codex-stream.js';
import { unwrapShellCommand } from './codex-shell-command.js';

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
    ['a command starting', '{"type":"item.started","item":{"id":"item_2","type":"command_execution","command":"ls","status":"in_progress"}}', [{ kind: 'tool-call', id: 'item_2', name: 'exec_command', input: { command: 'ls', argv: 'ls' } }]],
    // Real lines of codex 0.169.0 (`codex exec resume <id> --json`, read-only sandbox, stand-in model), 2026-11-30.
    [
      'a real shell call starting',
      '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
      [{ kind: 'tool-call', id: 'item_1', name: 'exec_command', input: { command: 'ls', argv: '/bin/bash -c ls' } }],
    ],
    [
      'a real shell call done',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c ls","aggregated_output":"","exit_code":0,"status":"completed"}}',
      [{ kind: 'tool-result', id: 'item_1', output: '', isError: false }],
    ],
    [
      'a real quoted shell call starting',
      '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c \'echo \\"it is\\" && touch x.txt\'","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
      [{ kind: 'tool-call', id: 'item_1', name: 'exec_command', input: { command: 'echo "it is" && touch x.txt', argv: '/bin/bash -c \'echo "it is" && touch x.txt\'' } }],
    ],
    [
      'a real shell call refused by the read-only sandbox',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c \'echo \\"it is\\" && touch x.txt\'","aggregated_output":"it is\\ntouch: cannot touch \'x.txt\': Read-only file system\\n","exit_code":1,"status":"failed"}}',
      [{ kind: 'tool-result', id: 'item_1', output: "it is\ntouch: cannot touch 'x.txt': Read-only file system\n", isError: true }],
    ],
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

describe('unwrapShellCommand', () => {
  it.each([
    ['/bin/bash -c ls', 'ls'],
    ['bash -lc pwd', 'pwd'],
    ['/usr/bin/zsh -c \'git status --short\'', 'git status --short'],
    ["/bin/bash -c 'echo '\\''quoted'\\'' word'", "echo 'quoted' word"],
    // Not one shell word: shown as Codex printed it.
    ["/bin/bash -c 'a' 'b'", "/bin/bash -c 'a' 'b'"],
    ['/bin/bash -c echo hi', '/bin/bash -c echo hi'],
    ["/bin/bash -c '", "/bin/bash -c '"],
    ['python3 -c print(1)', 'python3 -c print(1)'],
    ['ls -la', 'ls -la'],
    ['', ''],
  ])('%s', (printed, shown) => {
    expect(unwrapShellCommand(printed)).toBe(shown);
  });

  it('round-trips any command quoted the POSIX way', () => {
    const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (command) => {
        expect(unwrapShellCommand(`/bin/bash -c ${quote(command)}`)).toBe(command);
      }),
      { numRuns: 500 },
    );
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
