import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256Hex } from '../hash.js';
import { landAndReadBack } from '../handoff/send.js';
import { createHandoffFixture, type HandoffFixture } from '../handoff/test-support/handoff-fixture.js';
import { TRIM_ERROR_LINES_MAX, TRIM_HEAD_LINES, TRIM_LINE_MAX_CHARS, TRIM_OVER_BYTES, TRIM_TAIL_LINES, trimOutput, trimToolOutputs } from './trim-tool-output.js';

const numbered = (n: number, line = (i: number) => `line ${i + 1}`) => Array.from({ length: n }, (_, i) => line(i)).join('\n');

describe('trimOutput', () => {
  it('leaves a small output whole', () => {
    expect(trimOutput('ok\n', 0)).toBeNull();
    expect(trimOutput(numbered(100), 0)).toBeNull();
  });

  it('keeps the exit code, the first and last lines and the error lines between them, with their numbers', () => {
    const output = numbered(2_000, (i) => (i === 999 ? 'src/a.ts(3,1): error TS2304: Cannot find name x' : i === 1500 ? 'FAIL src/b.test.ts > adds' : `line ${i + 1}`));
    const trimmed = trimOutput(output, 2)!;
    const lines = trimmed.text.split('\n');
    expect(lines[0]).toBe(`[trimmed by Baton: 2000 lines, ${Buffer.byteLength(output)} bytes, exit code 2; full output ${trimmed.fullOutput.ref}]`);
    expect(lines.slice(1, 1 + TRIM_HEAD_LINES)).toEqual(output.split('\n').slice(0, TRIM_HEAD_LINES));
    expect(lines.slice(-TRIM_TAIL_LINES)).toEqual(output.split('\n').slice(-TRIM_TAIL_LINES));
    expect(trimmed.text).toContain('  1000│ src/a.ts(3,1): error TS2304: Cannot find name x');
    expect(trimmed.text).toContain('  1501│ FAIL src/b.test.ts > adds');
    expect(trimmed.text).toContain(`… ${2_000 - TRIM_HEAD_LINES - TRIM_TAIL_LINES} lines omitted; 2 error lines among them:`);
    expect(trimmed.fullOutput).toEqual({ ref: `artifacts/${sha256Hex(output)}.txt`, sha256: sha256Hex(output), bytes: Buffer.byteLength(output), lines: 2_000 });
    expect(trimmed.bytes.toString('utf8')).toBe(output);
  });

  it('caps the error lines and says how many there were', () => {
    const trimmed = trimOutput(numbered(1_000, (i) => `Error: case ${i}`), 1)!;
    expect(trimmed.text.split('\n').filter((l) => /^\s+\d+│ Error/.test(l))).toHaveLength(TRIM_ERROR_LINES_MAX);
    expect(trimmed.text).toContain(`950 error lines among them (first ${TRIM_ERROR_LINES_MAX} shown)`);
  });

  it('trims one huge line (minified output) by bytes and cuts it with a marker', () => {
    const trimmed = trimOutput('x'.repeat(TRIM_OVER_BYTES * 4), null)!;
    expect(trimmed.text).toContain(`… [${TRIM_OVER_BYTES * 4 - TRIM_LINE_MAX_CHARS} more characters]`);
    expect(trimmed.text).not.toContain('exit code');
  });

  it('property: the trimmed text is bounded and the artifact bytes are exactly the output', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 2_000 }), { minLength: 0, maxLength: 600 }), fc.option(fc.integer({ min: -1, max: 255 })), (lines, code) => {
        const output = lines.join('\n');
        const trimmed = trimOutput(output, code);
        if (!trimmed) return Buffer.byteLength(output) <= TRIM_OVER_BYTES;
        const maxLines = 1 + TRIM_HEAD_LINES + 1 + TRIM_ERROR_LINES_MAX + 1 + TRIM_TAIL_LINES;
        const bounded = trimmed.text.split('\n').length <= maxLines && trimmed.text.length <= maxLines * (TRIM_LINE_MAX_CHARS + 60);
        return bounded && trimmed.bytes.toString('utf8') === output && trimmed.fullOutput.sha256 === sha256Hex(output);
      }),
      { numRuns: 300 },
    );
  });
});

describe('trimToolOutputs', () => {
  it('trims tool-call outputs and tool messages, once per output, and leaves everything else as it was', () => {
    const big = numbered(500);
    const input = [
      { role: 'user' as const, content: big },
      { role: 'assistant' as const, content: 'running', toolCalls: [{ id: 'a', name: 'Bash', output: big, exitCode: 0 }, { id: 'b', name: 'Bash', output: 'small' }] },
      { role: 'tool' as const, content: big, toolCallId: 'a', exitCode: 0 },
    ];
    const { messages, artifacts } = trimToolOutputs(input);
    expect(messages[0]).toEqual(input[0]);
    expect(messages[1]!.toolCalls![0]!.fullOutput!.sha256).toBe(sha256Hex(big));
    expect(messages[1]!.toolCalls![0]!.output).toMatch(/^\[trimmed by Baton: 500 lines/);
    expect(messages[1]!.toolCalls![1]).toEqual(input[1]!.toolCalls![1]);
    expect(messages[2]!.fullOutput!.ref).toBe(`artifacts/${sha256Hex(big)}.txt`);
    expect(artifacts).toHaveLength(2);
    // Trimming what was already trimmed changes nothing (an imported session handed off again).
    expect(trimToolOutputs(messages).messages).toEqual(messages);
  });
});

describe('landing a session with large tool outputs', () => {
  let fixture: HandoffFixture;
  beforeEach(async () => {
    fixture = await createHandoffFixture();
  });
  afterEach(async () => fixture.dispose());

  it('stores the trimmed form in the log and the full output as an artifact by hash, in the same landing', async () => {
    const full = numbered(5_000, (i) => (i === 2_500 ? 'npm ERR! code ELIFECYCLE' : `building module ${i}`));
    const { session } = await landAndReadBack(fixture.store, {
      cwd: fixture.workDir,
      title: 'big output',
      messages: [
        { role: 'user', content: 'build it' },
        { role: 'assistant', content: 'ok', toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'npm run build' }, output: full, exitCode: 1 }] },
        { role: 'tool', content: full, toolCallId: 't1', exitCode: 1 },
      ],
    });
    const records = await fixture.store.readMessages(session.id);
    const call = records[1]!.toolCalls![0]!;
    expect(call.output).toContain('2501│ npm ERR! code ELIFECYCLE');
    expect(call.output!.length).toBeLessThan(full.length / 10);
    expect(Buffer.from(await fixture.store.readArtifact(session.id, call.fullOutput!.ref)).toString('utf8')).toBe(full);
    expect(records[2]!.fullOutput).toEqual(call.fullOutput);
  });
});

describe('a fork of a session with trimmed outputs', () => {
  let fixture: HandoffFixture;
  beforeEach(async () => {
    fixture = await createHandoffFixture();
  });
  afterEach(async () => fixture.dispose());

  it('carries the full outputs with it: every reference of the fork resolves by hash', async () => {
    const full = numbered(1_000);
    const { session } = await landAndReadBack(fixture.store, {
      cwd: fixture.workDir,
      title: 'to fork',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', content: full, toolCallId: 'x', exitCode: 0 },
      ],
    });
    const fork = await fixture.store.fork(session.id, 1, 'terminal');
    const records = await fixture.store.readMessages(fork.id);
    const ref = records[1]!.fullOutput!.ref;
    expect(Buffer.from(await fixture.store.readArtifact(fork.id, ref)).toString('utf8')).toBe(full);
  });
});
