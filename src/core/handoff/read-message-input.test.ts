import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageInput } from '../../shared/message.js';
import { parseMessageInput } from './read-message-input.js';

afterEach(() => vi.restoreAllMocks());

describe('parseMessageInput and zod', () => {
  it('admits well-formed lines without the zod schema (its first parse compiles a parser: a CLI pays it every run)', () => {
    const safeParse = vi.spyOn(MessageInput, 'safeParse');
    const lines = Array.from({ length: 150 }, (_, i) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `m${i}`, ...(i % 3 === 0 ? { toolCalls: [{ id: `t${i}`, name: 'bash', input: { cmd: 'ls' } }] } : {}), extra: i }),
    );
    const parsed = parseMessageInput(lines.join('\n'), 'in.jsonl');
    expect(parsed.ok && parsed.messages.length).toBe(150);
    expect(parsed.ok && parsed.messages[3]).toEqual({ role: 'assistant', content: 'm3', toolCalls: [{ id: 't3', name: 'bash', input: { cmd: 'ls' } }], extra: 3 });
    expect(safeParse).not.toHaveBeenCalled();
  });

  it('leaves a line the hand check refuses to the schema, which words the error', () => {
    const safeParse = vi.spyOn(MessageInput, 'safeParse');
    const parsed = parseMessageInput(`{"role":"user","content":"a"}\n{"role":"user","content":"b","toolCalls":[{"id":"t","name":""}]}`, 'in.jsonl');
    expect(parsed).toEqual({ ok: false, message: 'in.jsonl:2: toolCalls.0.name: Too small: expected string to have >=1 characters' });
    expect(safeParse).toHaveBeenCalledTimes(1);
  });
});
