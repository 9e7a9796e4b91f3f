import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_MAX_DEPTH, nestedDeeperThan } from './read-message-input.js';
import { landAndReadBack } from './send.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => {
  await fixture.dispose();
});

function nested(levels: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('landing refuses what the store cannot hold, by name, before any write', () => {
  it('measures depth iteratively, at the limit and past it', () => {
    expect(nestedDeeperThan(nested(MESSAGE_MAX_DEPTH - 1), MESSAGE_MAX_DEPTH)).toBe(false);
    expect(nestedDeeperThan(nested(MESSAGE_MAX_DEPTH), MESSAGE_MAX_DEPTH)).toBe(true);
    expect(nestedDeeperThan(nested(100_000), MESSAGE_MAX_DEPTH)).toBe(true);
  });

  it('an import with tool input nested 5,000 levels is BAD_REQUEST naming the message, and nothing is written', async () => {
    const error = await landAndReadBack(fixture.store, {
      cwd: fixture.workDir,
      title: 'deep',
      source: { tool: 'claude', externalId: 'x', path: '/x.jsonl' },
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'x', toolCalls: [{ id: 't', name: 'Bash', input: nested(5_000) }] },
      ],
    }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('BAD_REQUEST');
    expect((error as Error).message).toBe(`message 2 is nested deeper than ${MESSAGE_MAX_DEPTH} levels; Baton stores messages up to that depth`);
    expect(await fixture.store.list()).toEqual([]);
  });
});
