import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';

describe('builtOnFirstUse', () => {
  it('builds nothing until the first read, then once', () => {
    let builds = 0;
    const Name = builtOnFirstUse(() => (builds++, z.string().min(2)));
    expect(builds).toBe(0);
    expect(Name.safeParse('ab').success).toBe(true);
    expect(Name.safeParse('abc').success).toBe(true);
    expect(builds).toBe(1);
  });

  it('composes into other schemas and parses with the same issues as the schema built directly', () => {
    const direct = () => z.looseObject({ name: z.string().min(2) });
    const Inner = builtOnFirstUse(direct);
    const Outer = builtOnFirstUse(() => z.discriminatedUnion('kind', [z.object({ kind: z.literal('one'), inner: Inner.nullable() }), z.object({ kind: z.literal('many'), inner: z.array(Inner) })]));
    const DirectOuter = z.discriminatedUnion('kind', [z.object({ kind: z.literal('one'), inner: direct().nullable() }), z.object({ kind: z.literal('many'), inner: z.array(direct()) })]);
    for (const value of [{ kind: 'one', inner: null }, { kind: 'many', inner: [{ name: 'x' }] }, { kind: 'other' }, { kind: 'one', inner: { name: 'ok' } }]) {
      expect(Outer.safeParse(value)).toEqual(DirectOuter.safeParse(value));
      expect(Outer.safeParse(value, { jitless: true })).toEqual(DirectOuter.safeParse(value, { jitless: true }));
    }
  });

  it('answers instanceof, keys and descriptors as the built value', () => {
    const Schema = builtOnFirstUse(() => z.object({ a: z.number() }));
    expect(Schema instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Schema)).toEqual(Object.keys(z.object({ a: z.number() })));
    expect(Object.getOwnPropertyDescriptor(Schema, '_zod')?.value.def.type).toBe('object');
    expect(Object.keys(Schema.shape)).toEqual(['a']);
  });
});
