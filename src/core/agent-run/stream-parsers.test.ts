import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS, STREAM_OUTPUT_MAX_CHARS, parseClaudeStreamLine } from './claude-stream.js';
import { parseCodexStreamLine } from './codex-stream.js';
import { ROLLOUT_POLL_MS, parseCodexRolloutToolLine, tailCodexRollout } from './codex-rollout-tools.js';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    ['a command starting', '{"type":"item.started","item":{"id":"item_2","type":"command_execution","command":"ls","status":"in_progress"}}', []],
    // Real lines of codex 0.169.0 (`codex exec resume <id> --json`, no approval policy set), 2026-11-30: skipped, the rollout carries the calls.
    [
      'a real shell call starting',
      '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
      [],
    ],
    [
      'a real shell call done',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c ls","aggregated_output":"","exit_code":0,"status":"completed"}}',
      [],
    ],
    [
      'a real quoted shell call starting',
      '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c \'echo \\"it is\\" && touch x.txt\'","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
      [],
    ],
    [
      'a real shell call refused by the read-only sandbox',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -c \'echo \\"it is\\" && touch x.txt\'","aggregated_output":"it is\\ntouch: cannot touch \'x.txt\': Read-only file system\\n","exit_code":1,"status":"failed"}}',
      [],
    ],
    [
      'a command failing',
      '{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"touch x","aggregated_output":"Read-only file system","exit_code":1,"status":"failed"}}',
      [],
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

// Real rollout lines of codex 0.169.0 (`codex exec resume <id> --json -c approval_policy="never"`, read-only sandbox, stand-in model), 2026-11-30.
const call = '{"timestamp":"2026-11-30T15:47:57.186Z","ordinal":20,"type":"response_item","payload":{"type":"function_call","status":"completed","id":"fc_mx3fzips3","name":"exec_command","arguments":"{\\"cmd\\":\\"echo \\\\\\"it is\\\\\\" && touch x.txt\\",\\"login\\":false}","call_id":"call_mx3fzips4","internal_chat_message_metadata_passthrough":{"turn_id":"01a22d24-3453-7de1-b17d-02bad625ddbe"}},"metadata":{"history_sequence":6,"sampled_through_sequence":5,"client_authored":false,"user_input_order":3}}';
const output = '{"timestamp":"2026-11-30T15:47:57.299Z","ordinal":22,"type":"response_item","payload":{"type":"function_call_output","id":"fco_01a22d24-34f3-72d1-929f-ef18dfa63854","call_id":"call_mx3fzips4","output":"Chunk ID: eb658a\\nWall time: 0.0000 seconds\\nProcess exited with code 1\\nOriginal token count: 15\\nOutput:\\ntouch: cannot touch \'x.txt\': Read-only file system\\nit is\\n","internal_chat_message_metadata_passthrough":{"turn_id":"01a22d24-3453-7de1-b17d-02bad625ddbe","create_time":1796053677.2994692}},"metadata":{"history_sequence":7,"sampled_through_sequence":5,"client_authored":false,"fallback_token_limit_override":3000}}';

describe('parseCodexRolloutToolLine', () => {
  it('a real shell call, then its output refused by the read-only sandbox', () => {
    expect(parseCodexRolloutToolLine(call)).toEqual([{ kind: 'tool-call', id: 'call_mx3fzips4', name: 'exec_command', input: { command: 'echo "it is" && touch x.txt' } }]);
    expect(parseCodexRolloutToolLine(output)).toEqual([{ kind: 'tool-result', id: 'call_mx3fzips4', output: "touch: cannot touch 'x.txt': Read-only file system\nit is\n", isError: true }]);
  });

  it.each([
    ['exit 0 is not an error', '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Process exited with code 0\\nOutput:\\nok\\n"}}', [{ kind: 'tool-result', id: 'c', output: 'ok\n', isError: false }]],
    ['a custom tool (apply_patch) with plain text input', '{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"p"}}', [{ kind: 'tool-call', id: 'p', name: 'apply_patch', input: { input: '*** Begin Patch' } }]],
    ['a message record', '{"type":"response_item","payload":{"type":"message","role":"assistant","content":[]}}', []],
    ['a call without call_id', '{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}"}}', []],
    ['a session_meta record', '{"type":"session_meta","payload":{"id":"x"}}', []],
    ['a torn line', '{"type":"response_item","payload":{"ty', []],
    ['not JSON', 'hello', []],
  ])('%s', (_name, line, expected) => {
    expect(parseCodexRolloutToolLine(line)).toEqual(expected);
  });
});

describe('tailCodexRollout', () => {
  it('reports only lines written after the start, joins a line written in two pieces, and reads the rest on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-rollout-'));
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, `${call}\n`);
    const seen: RunEvent[] = [];
    const tail = tailCodexRollout(path, statSync(path).size, (events) => seen.push(...events));
    appendFileSync(path, call.replace(/call_mx3fzips4/g, 'call_new').slice(0, 100));
    await new Promise((r) => setTimeout(r, 3 * ROLLOUT_POLL_MS));
    expect(seen).toEqual([]);
    appendFileSync(path, `${call.replace(/call_mx3fzips4/g, 'call_new').slice(100)}\n${output.replace(/call_mx3fzips4/g, 'call_new')}\n`);
    await tail.close();
    expect(seen.map((e) => [e.kind, (e as { id: string }).id])).toEqual([['tool-call', 'call_new'], ['tool-result', 'call_new']]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('both parsers, on any input', () => {
  it('never throw and only return events the UI contract accepts (the rollout reader too)', () => {
    const shapes = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ type: fc.constantFrom('assistant', 'user', 'result', 'item.started', 'item.completed', 'turn.failed'), message: fc.anything(), item: fc.anything(), is_error: fc.boolean(), uuid: fc.string() }).map((v) => JSON.stringify(v)),
      fc
        .record({
          type: fc.constant('response_item'),
          payload: fc.record({ type: fc.constantFrom('function_call', 'custom_tool_call', 'function_call_output', 'custom_tool_call_output', 'message'), call_id: fc.oneof(fc.string(), fc.anything()), name: fc.anything(), arguments: fc.oneof(fc.string(), fc.json()), input: fc.anything(), output: fc.anything() }),
        })
        .map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(shapes, fc.nat(), (line, n) => {
        for (const event of [...parseClaudeStreamLine(line, n), ...parseCodexStreamLine(line, n), ...parseCodexRolloutToolLine(line)]) expect(RunEvent.safeParse(event).success).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
