import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessageInput } from './read-message-input.js';
import { MESSAGE_INPUT_CHUNK_BYTES, MESSAGE_LINE_MAX_BYTES, parseMessageStream } from './stream-message-input.js';
import { parseMessageFile } from './test-support/parse-message-file.js';

/** The bytes cut into pieces at the given offsets, as a stream would hand them over. */
async function* piecesOf(bytes: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b)) {
    if (cut > at) yield bytes.subarray(at, cut);
    at = cut;
  }
  if (at < bytes.length) yield bytes.subarray(at);
}

const line = (value: unknown) => JSON.stringify(value);
const deep = (n: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = { v };
  return v;
};

/** Hand-written inputs: each kind of line the parser must accept or name precisely. */
const CASES: Record<string, string> = {
  empty: '',
  oneMessage: `${line({ role: 'user', content: 'fix the app' })}\n`,
  noFinalNewline: `${line({ role: 'user', content: 'a' })}\n${line({ role: 'assistant', content: 'b' })}`,
  crlf: `${line({ role: 'user', content: 'a' })}\r\n${line({ role: 'assistant', content: 'b' })}\r\n`,
  blankLines: `\n\n   \n${line({ role: 'user', content: 'a' })}\n\t\n\n`,
  duplicateIds: `${line({ role: 'user', content: 'a', id: 'm1' })}\n${line({ role: 'assistant', content: 'b', id: 'm1' })}\n${line({ role: 'user', content: 'a', id: 'm1' })}\n`,
  secretsSplitAcrossFields: `${line({ role: 'assistant', content: 'key AKIA', toolCalls: [{ id: 't1', name: 'bash', input: { cmd: 'IOSFODNN7EXAMPLE' } }] })}\n${line({ role: 'tool', content: 'ghp_', toolCallId: 't1', exitCode: 0 })}\n`,
  multibyte: `${line({ role: 'user', content: 'héllo wörld — 日本語 😀'.repeat(50) })}\n`,
  invalidUtf8: Buffer.concat([Buffer.from('{"role":"user","content":"a'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}\n')]).toString('latin1'),
  bom: `\uFEFF${line({ role: 'user', content: 'a' })}\n`,
  garbageLine5: `${[1, 2, 3, 4].map((i) => line({ role: 'user', content: `m${i}` })).join('\n')}\nthis is not json\n${line({ role: 'user', content: 'after' })}\n`,
  truncatedJson: `${line({ role: 'user', content: 'a' })}\n{"role":"user","content":"unterminated\n`,
  wrongRole: `${line({ role: 'wizard', content: 'a' })}\n`,
  missingContent: `\n\n${line({ role: 'user' })}\n`,
  arrayLine: `[1,2,3]\n`,
  nullLine: `null\n`,
  tooDeep: `${line({ role: 'user', content: 'a', extra: deep(300) })}\n`,
  deepButAllowed: `${line({ role: 'user', content: 'a', extra: deep(200) })}\n`,
  unknownFieldsKept: `${line({ role: 'user', content: 'a', custom: { x: [1, 2] } })}\n`,
  hugeSingleLine: `${line({ role: 'tool', content: 'x'.repeat(3 * MESSAGE_INPUT_CHUNK_BYTES + 17), toolCallId: 't' })}\n${line({ role: 'user', content: 'next' })}\n`,
  hugeLineThenGarbage: `${line({ role: 'assistant', content: 'y'.repeat(2 * MESSAGE_INPUT_CHUNK_BYTES) })}\n\n{bad\n`,
  onlyCr: '\r\n\r\n',
};

// The bytes of the invalid-UTF-8 case are meant as raw bytes, not as Latin-1 text re-encoded.
const bytesOf = (name: string, text: string) => (name === 'invalidUtf8' ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8'));

describe('parseMessageStream gives what parseMessageInput gives on the whole text', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`${name}: the same messages or the same error, whatever the chunk boundaries`, async () => {
      const bytes = bytesOf(name, text);
      const whole = parseMessageInput(bytes.toString('utf8'), 'in.jsonl');
      // Every single cut point for small inputs (a split inside each UTF-8 sequence and each "\r\n" included), a spread for big ones.
      const step = Math.max(1, Math.floor(bytes.length / 200));
      for (let cut = 0; cut <= bytes.length; cut += step) {
        expect(await parseMessageStream(piecesOf(bytes, [cut]), 'in.jsonl'), `cut at ${cut}`).toEqual(whole);
      }
      // One byte a piece (small inputs: a huge line that way would only test the test's speed).
      if (bytes.length < 100_000) expect(await parseMessageStream(piecesOf(bytes, Array.from({ length: bytes.length }, (_, i) => i)), 'in.jsonl')).toEqual(whole);
    });
  }

  it('names the line of each error as the whole-text parse does', async () => {
    const cases: [string, string][] = [
      ['garbageLine5', 'in.jsonl:5: not valid JSON'],
      ['truncatedJson', 'in.jsonl:2: not valid JSON'],
      ['missingContent', 'in.jsonl:3: '],
      ['tooDeep', 'in.jsonl:1: nested deeper than 256 levels'],
      ['hugeLineThenGarbage', 'in.jsonl:3: not valid JSON'],
      ['bom', 'in.jsonl:1: not valid JSON'],
    ];
    for (const [name, prefix] of cases) {
      const result = await parseMessageStream(piecesOf(bytesOf(name, CASES[name]!), [7, 100, 5000]), 'in.jsonl');
      expect(result.ok, name).toBe(false);
      if (!result.ok) expect(result.message.startsWith(prefix), `${name}: ${result.message}`).toBe(true);
    }
  });

  it('never echoes the content of a bad line', async () => {
    const result = await parseMessageStream(piecesOf(Buffer.from('root:$6$secrethash:19000:0:99999:7:::\n'), [3]), '/etc/shadow');
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^\/etc\/shadow:1: not valid JSON/) });
    if (!result.ok) expect(result.message).not.toContain('secrethash');
  });

  it('a generated corpus of 400 inputs (valid, blank, CRLF, garbage, wrong shapes, multibyte), cut at random places', async () => {
    const lineArb = fc.oneof(
      { weight: 6, arbitrary: fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'system'), content: fc.string({ unit: 'binary', maxLength: 200 }) }).map(line) },
      { weight: 2, arbitrary: fc.record({ role: fc.constant('user'), content: fc.string(), id: fc.constantFrom('a', 'b', 'c') }).map(line) },
      { weight: 1, arbitrary: fc.constantFrom('', '  ', '\r', '\t') },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }).filter((s) => !s.includes('\n')) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    );
    const inputArb = fc.record({
      lines: fc.array(lineArb, { maxLength: 30 }),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
      cuts: fc.array(fc.nat({ max: 4000 }), { maxLength: 12 }),
    });
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(inputArb, async ({ lines, crlf, finalNewline, cuts }) => {
        const text = lines.join(crlf ? '\r\n' : '\n') + (finalNewline ? '\n' : '');
        const whole = parseMessageInput(text, 'gen.jsonl');
        if (!whole.ok) failures++;
        expect(await parseMessageStream(piecesOf(Buffer.from(text, 'utf8'), cuts), 'gen.jsonl')).toEqual(whole);
      }),
      { numRuns: 400, seed: 20_2026 },
    );
    // The corpus exercises both outcomes, so the equality above is not only over successes.
    expect(failures).toBeGreaterThan(20);
    expect(failures).toBeLessThan(390);
  });

  it('stops at a line longer than MESSAGE_LINE_MAX_BYTES, naming it, without decoding it', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${line({ role: 'user', content: 'first' })}\n{"role":"user","content":"`);
      const block = Buffer.alloc(16 * 1024 * 1024, 0x61);
      for (let sent = 0; sent <= MESSAGE_LINE_MAX_BYTES; sent += block.length) yield block;
      throw new Error('read past the line limit');
    }
    expect(await parseMessageStream(endless(), 'big.jsonl')).toEqual({ ok: false, message: `big.jsonl:2: line longer than ${MESSAGE_LINE_MAX_BYTES} bytes; one message a line, each at most that size` });
  });

  it('caps a stream at maxBytes (stdin) with the message the CLI gave before', async () => {
    const bytes = Buffer.from(`${line({ role: 'user', content: 'x'.repeat(100) })}\n`.repeat(10));
    expect(await parseMessageStream(piecesOf(bytes, [50, 300]), 'stdin', 500)).toEqual({ ok: false, message: 'stdin holds more than 500 bytes' });
    expect((await parseMessageStream(piecesOf(bytes, [50, 300]), 'stdin', bytes.length)).ok).toBe(true);
  });
});

describe('parseMessageFile reads a real file in chunks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-stream-input-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a file several chunks long: the same messages as the whole-text parse', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => line({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} ${'ü'.repeat(i % 97)}`, id: `m${i % 1000}` }));
    const text = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * MESSAGE_INPUT_CHUNK_BYTES);
    const path = join(dir, 'many.jsonl');
    await writeFile(path, text);
    const streamed = await parseMessageFile(path);
    expect(streamed).toEqual(parseMessageInput(text, path));
    expect(streamed.ok && streamed.messages.length).toBe(30_000);
  });

  it('a bad line deep in the file is named by its number', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => line({ role: 'user', content: `m${i}` }));
    lines[41_234] = '{"role":"user","content":';
    const path = join(dir, 'bad.jsonl');
    await writeFile(path, lines.join('\n'));
    expect(await parseMessageFile(path)).toEqual({ ok: false, message: `${path}:41235: not valid JSON (each line must be one {"role","content"} object; the line's content is not shown)` });
  });

  it('a missing file: the error names it, as the CLI said before', async () => {
    const path = join(dir, 'absent.jsonl');
    const result = await parseMessageFile(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(new RegExp(`^cannot read ${path}: ENOENT`));
  });
});
