import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseServerFrame } from './server-frames.js';
import { AnswerFrame, AuthenticatedFrame, HelloFrame, parseJsonStrict } from './wire.js';

/** The verdict of wire.ts's zod schemas, dispatched as the client did before it checked frames by hand. */
function zodAccepts(text: string): boolean {
  const json = parseJsonStrict(text);
  if (!json.ok || json.value === null || typeof json.value !== 'object' || Array.isArray(json.value)) return false;
  const r = json.value as Record<string, unknown>;
  if (r.type === 'answer') return (r.ok === true ? AnswerFrame.options[0] : AnswerFrame.options[1]).safeParse(r).success;
  if (r.type === 'hello') return HelloFrame.safeParse(r).success;
  if (r.type === 'authenticated') return AuthenticatedFrame.safeParse(r).success;
  return false;
}

const NONCE = `${'A'.repeat(42)}b=`;
const PROOF = 'a'.repeat(64);

/** Values near each field's rule: valid ones, off by one, wrong type, null, absent. */
const near = {
  version: fc.constantFrom('1.0', '12.3456', '12345.1', '1', '1.', '.1', 'a.b', ' 1.0', 1.0, null, undefined),
  versions: fc.oneof(fc.array(fc.constantFrom('1.0', '2.1', '9999.9999', 'x', 1), { minLength: 0, maxLength: 18 }), fc.constantFrom('1.0', null, undefined, {})),
  nonce: fc.constantFrom(NONCE, `${'A'.repeat(43)}=`, `${'A'.repeat(44)}`, `${'A'.repeat(42)}==`, `${'+/'.repeat(21)}a=`, '', null, undefined, 44),
  proof: fc.constantFrom(PROOF, 'A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), `${'0'.repeat(63)}g`, null, undefined, 7),
  id: fc.constantFrom('r-1', 'a'.repeat(64), 'a'.repeat(65), '', 'a b', 'é', null, undefined, 3),
  ok: fc.constantFrom(true, false, 'true', 0, 1, null, undefined),
  code: fc.constantFrom('BAD_FRAME', 'B', 'B'.repeat(64), 'B'.repeat(65), 'bad', '_X', 'X-Y', '1A', null, undefined),
  message: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('x'.repeat(4096), 'x'.repeat(4097), '😀'.repeat(2048), '😀'.repeat(2049), null, undefined, 5)),
  type: fc.constantFrom('hello', 'authenticated', 'answer', 'auth', 'request', 'Hello', null, undefined),
  extra: fc.option(fc.dictionary(fc.constantFrom('future', 'status', 'listing', 'parts'), fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
};

const frame = fc.record({ type: near.type, versions: near.versions, nonce: near.nonce, serverProof: near.proof, version: near.version, id: near.id, ok: near.ok, code: near.code, message: near.message, extra: near.extra }, { requiredKeys: ['type'] }).map(({ extra, ...fields }) => {
  const out: Record<string, unknown> = { ...extra };
  // undefined drops the key, as JSON.stringify would: absent fields are tried too.
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return JSON.stringify(out);
});

describe('server frames checked by hand', () => {
  it('agree with the zod schemas on 30,000 generated frames near every rule, keeping unknown fields', () => {
    const accepted = new Map<string, number>();
    fc.assert(
      fc.property(frame, (text) => {
        const mine = parseServerFrame(text);
        expect(mine.ok, text).toBe(zodAccepts(text));
        if (mine.ok) {
          const kind = `${mine.value.type}${mine.value.type === 'answer' ? String((mine.value as { ok: boolean }).ok) : ''}`;
          accepted.set(kind, (accepted.get(kind) ?? 0) + 1);
          expect(mine.value).toEqual(JSON.parse(text));
        } else expect(mine.error.code).toBe('BAD_FRAME');
      }),
      { numRuns: 30_000, seed: 15 },
    );
    // The generator reaches accepted frames of every kind, not only rejections.
    expect([...accepted.keys()].sort()).toEqual(['answerfalse', 'answertrue', 'authenticated', 'hello']);
    for (const n of accepted.values()) expect(n).toBeGreaterThan(10);
  });

  it('agree on the frames a real server sends and on arbitrary JSON', () => {
    const real = [
      { type: 'hello', versions: ['1.0'], nonce: NONCE },
      { type: 'authenticated', version: '1.0', serverProof: PROOF },
      { type: 'answer', id: 'r1', ok: true, parts: 3, text: '', listing: 'x', file: '/d/listings/l.json' },
      { type: 'answer', id: null, ok: false, code: 'BUSY', message: 'too many connections' },
    ];
    for (const f of real) expect(parseServerFrame(JSON.stringify(f))).toEqual({ ok: true, value: f });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value) ?? 'null';
        expect(parseServerFrame(text).ok).toBe(zodAccepts(text));
      }),
      { numRuns: 5_000, seed: 17 },
    );
  });
});
