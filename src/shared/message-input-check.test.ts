import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE_CONTENT_MAX_CHARS, MessageInput } from './message.js';
import { admitMessageInput } from './message-input-check.js';

const SHA = 'a'.repeat(64);
const REF = `artifacts/${SHA}.txt`;
/** 256 code points in 257 UTF-16 units, and 257 code points: zod counts code points. */
const ID_256_CP = `${'i'.repeat(255)}😀`.slice(0, 257);
const ID_257_CP = `${'i'.repeat(256)}😀`;

/** Mostly valid values, else one near the rule (off by one, wrong type, null): most generated messages fail one rule at a time, many pass. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: invalid, weight: 1 });

/** Values near each rule (undefined drops the key: absent fields are tried too). */
const near = {
  role: mostly(fc.constantFrom('user', 'assistant', 'tool', 'system'), fc.constantFrom('User', 'bot', '', null, 1, undefined)),
  content: mostly(fc.string({ maxLength: 12 }), fc.constantFrom('\ud800', 7, null, ['x'], undefined)),
  id: mostly(fc.constantFrom('m1', 'x'.repeat(256), ID_256_CP, '\udc00', undefined), fc.constantFrom('', 'x'.repeat(257), ID_257_CP, 0, null)),
  text: mostly(fc.constantFrom('2026-01-01T00:00:00Z', '', 'gpt', undefined), fc.constantFrom(3, null, false)),
  int: mostly(fc.constantFrom(0, -0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), undefined), fc.constantFrom(2.5, 2 ** 53, -(2 ** 53), 1e300, '1', true)),
  fullOutput: mostly(
    fc.record(
      {
        ref: mostly(fc.constant(REF), fc.constantFrom(`artifacts/${SHA}.md`, `artifacts/${'A'.repeat(64)}.txt`, `x/artifacts/${SHA}.txt`, `${REF}\n`, null, undefined)),
        sha256: mostly(fc.constant(SHA), fc.constantFrom('a'.repeat(63), 'g'.repeat(64), `${SHA}\n`, 64, undefined)),
        bytes: mostly(fc.constantFrom(0, 10, 2 ** 53 - 1), fc.constantFrom(-1, 1.5, 2 ** 53, '10', undefined)),
        lines: mostly(fc.constantFrom(0, 3), fc.constantFrom(-1, 0.5, null, undefined)),
        extra: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
    fc.constantFrom(null, [], 'artifacts', 0),
  ),
  unknownKey: fc.constantFrom('future', 'toString', 'constructor', 'hasOwnProperty', '__proto__', '0', '10', 'role ', 'Content', 'valueOf'),
};

const toolCall = mostly(
  fc.record(
    {
      id: mostly(fc.constantFrom('t1', 'x'.repeat(300)), fc.constantFrom('', 0, null, undefined)),
      name: mostly(fc.constantFrom('bash', 'e'), fc.constantFrom('', null, ['bash'], undefined)),
      input: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
      exitCode: near.int,
      output: near.text,
      fullOutput: fc.option(near.fullOutput, { nil: undefined }),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, 'call', [], 1),
);

/** A message object near every rule, its keys in a shuffled order, with unknown keys among them. */
const message = fc
  .tuple(
    fc.record(
      {
        role: near.role,
        content: near.content,
        id: near.id,
        createdAt: near.text,
        model: near.text,
        toolCalls: fc.option(mostly(fc.array(toolCall, { maxLength: 3 }), fc.constantFrom(null, {}, 'none')), { nil: undefined }),
        toolCallId: near.text,
        exitCode: near.int,
        fullOutput: fc.option(near.fullOutput, { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(near.unknownKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    fc.infiniteStream(fc.integer()),
  )
  .map(([fields, extra, order]) => {
    const entries = [...Object.entries(fields), ...Object.entries(extra)].filter(([, v]) => v !== undefined);
    const keyed = entries.map((entry) => ({ entry, rank: order.next().value as number }));
    keyed.sort((a, b) => a.rank - b.rank);
    // JSON text, parsed as a handoff line is: an own "__proto__" key, -0 and 2**53 kept as JSON.parse makes them.
    return `{${keyed.map(({ entry: [k, v] }) => `${JSON.stringify(k)}:${Object.is(v, -0) ? '-0' : JSON.stringify(v)}`).join(',')}}`;
  });

/** The hand check against MessageInput on one JSON value: the same verdict and, when admitted, the same object, key order included. */
function expectSameVerdict(value: unknown, label: string): boolean {
  const zod = MessageInput.safeParse(value);
  const mine = admitMessageInput(value);
  expect(mine !== null, label).toBe(zod.success);
  if (mine !== null && zod.success) {
    expect(JSON.stringify(mine), label).toBe(JSON.stringify(zod.data));
    expect(mine).toStrictEqual(zod.data);
  }
  return zod.success;
}

describe('MessageInput checked by hand', () => {
  it('agrees with the zod schema on 8,000 generated messages near every rule: verdict, output and key order', () => {
    let admitted = 0;
    fc.assert(
      fc.property(message, (text) => {
        if (expectSameVerdict(JSON.parse(text), text)) admitted++;
      }),
      { numRuns: 8_000, seed: 20 },
    );
    // The generator reaches admitted messages, not only refusals.
    expect(admitted).toBeGreaterThan(300);
  });

  it('agrees on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expectSameVerdict(JSON.parse(JSON.stringify(value) ?? 'null'), JSON.stringify(value));
      }),
      { numRuns: 3_000, seed: 21 },
    );
  });

  it('agrees on the edges: content at its limit, non-finite and unsafe numbers, prototype keys', () => {
    const cases: [string, boolean][] = [
      [JSON.stringify({ role: 'user', content: 'x'.repeat(MESSAGE_CONTENT_MAX_CHARS) }), true],
      [JSON.stringify({ role: 'user', content: 'x'.repeat(MESSAGE_CONTENT_MAX_CHARS + 1) }), false],
      [JSON.stringify({ role: 'user', content: '😀'.repeat(MESSAGE_CONTENT_MAX_CHARS / 2 + 1) }), true],
      ['{"role":"tool","content":"","exitCode":1e999}', false],
      ['{"role":"tool","content":"","exitCode":-1e999}', false],
      ['{"role":"tool","content":"","exitCode":9007199254740993}', false],
      ['{"role":"tool","content":"","exitCode":-0}', true],
      ['{"role":"tool","content":"","exitCode":1.0}', true],
      ['{"__proto__":{"role":"user","content":"x"}}', false],
      ['{"__proto__":{"polluted":1},"role":"user","content":"x"}', true],
      ['{"content":"x","role":"user","toString":"t","id":"a","0":1}', true],
      ['{"role":"user","content":"x","toolCalls":[{"id":"t","name":"n","__proto__":{"id":""}}]}', true],
      ['{"role":"user","content":"x","toolCalls":[{"name":"n","__proto__":{"id":"t"}}]}', false],
      ['{"role":"user","content":"x","toolCalls":[]}', true],
      ['{"role":"user","content":"x","toolCalls":[null]}', false],
      ['{"role":"user","content":"x","toolCalls":{"0":{"id":"t","name":"n"},"length":1}}', false],
    ];
    for (const [text, accepted] of cases) expect(expectSameVerdict(JSON.parse(text), text), text).toBe(accepted);
  });
});
