import { describe, expect, it } from 'vitest';
import { HandlerError, uiChannels, type UiChannel } from '../../shared/ui-contract.js';
import { createUiDispatcher, type UiHandlerTable } from './ui-handlers.js';

/** A table answering every channel with what it was given; `override` replaces single handlers. */
function table(override: Partial<Record<UiChannel, (payload: unknown) => Promise<unknown>>> = {}) {
  const calls: { channel: string; payload: unknown }[] = [];
  const handlers = Object.fromEntries(
    (Object.keys(uiChannels) as UiChannel[]).map((channel) => [
      channel,
      override[channel] ??
        (async (payload: unknown) => {
          calls.push({ channel, payload });
          return { echoed: payload };
        }),
    ]),
  ) as unknown as UiHandlerTable;
  return { calls, dispatch: createUiDispatcher(handlers) };
}

describe('the UI dispatcher', () => {
  it('runs the channel handler with the validated payload and wraps its value', async () => {
    const { calls, dispatch } = table();
    expect(await dispatch('session:get', { id: 's-1' })).toEqual({ ok: true, value: { echoed: { id: 's-1' } } });
    expect(calls).toEqual([{ channel: 'session:get', payload: { id: 's-1' } }]);
  });

  it('treats a missing payload as {} for channels without fields', async () => {
    const { dispatch } = table();
    expect(await dispatch('host:info', undefined)).toEqual({ ok: true, value: { echoed: {} } });
    expect(await dispatch('sessions:list', null)).toEqual({ ok: true, value: { echoed: {} } });
  });

  it('strips keys the channel schema does not declare before the handler sees them', async () => {
    const { calls, dispatch } = table();
    await dispatch('grants:list', { sessionId: 's-1', extra: 'x', __proto__: { polluted: true } });
    expect(calls[0]!.payload).toEqual({ sessionId: 's-1' });
    expect(Object.getPrototypeOf(calls[0]!.payload)).toBe(Object.prototype);
  });

  it.each(['nope', 'toString', '__proto__', 'constructor', 'hasOwnProperty', ''])('refuses the unknown channel %j without calling anything', async (channel) => {
    const { calls, dispatch } = table();
    expect(await dispatch(channel, {})).toEqual({ ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown channel "${channel}"` } });
    expect(calls).toEqual([]);
  });

  it('refuses a payload that breaks the channel schema with BAD_REQUEST naming the channel and the field', async () => {
    const { calls, dispatch } = table();
    const answer = await dispatch('workspace:file', { sessionId: 's-1', path: 7 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(!answer.ok && answer.error.message).toMatch(/^workspace:file: path: /);
    const terminate = await dispatch('tasks:terminate', { id: 't-1' });
    expect(!terminate.ok && terminate.error.message).toMatch(/^tasks:terminate: confirmed: /);
    expect(calls).toEqual([]);
  });

  it('turns a thrown error into {ok: false} keeping its string code, INTERNAL otherwise', async () => {
    const { dispatch } = table({
      'session:get': async () => {
        throw Object.assign(new Error('No session s-9 in the store'), { code: 'NOT_FOUND' });
      },
      'sessions:list': async () => {
        throw Object.assign(new Error('odd'), { code: 42 });
      },
      'stats:get': async () => {
        throw 'a bare string';
      },
      'host:info': async () => {
        throw null;
      },
    });
    expect(await dispatch('session:get', { id: 's-9' })).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No session s-9 in the store' } });
    expect(await dispatch('sessions:list', {})).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'odd' } });
    const bare = await dispatch('stats:get', {});
    expect(bare).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'stats:get failed: a bare string' } });
    const nothing = await dispatch('host:info', {});
    expect(nothing).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'host:info failed: null' } });
    for (const answer of [bare, nothing]) expect(HandlerError.safeParse(!answer.ok && answer.error).success).toBe(true);
  });
});
