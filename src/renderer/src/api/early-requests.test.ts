import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromTransport } from './create-api';
import { createBridgeTransport } from './bridge-transport';
import { askEarly, invokeEarly } from './early-requests';
import type { BatonApi } from './types';
import { errResult, MemoryBridge, okResult } from '../test-support/memory-bridge';
import { rejection } from '../test-support/rejection';
import { row } from '../test-support/fixtures';

const apis: BatonApi[] = [];
afterEach(() => {
  for (const api of apis.splice(0)) api.close();
});

function apiFor(bridge: MemoryBridge): BatonApi {
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  return api;
}

describe('requests asked before the first render (issue 15)', () => {
  it('sends at once and hands the answer to the first same request only; later ones go to the host', async () => {
    let answer = 'first';
    const bridge = new MemoryBridge().handle('sessions:list', () => okResult([row({ id: answer })]));
    const api = apiFor(bridge);
    askEarly(api, 'sessions:list', {}, 'session:changed');
    expect(bridge.callsTo('sessions:list')).toBe(1);
    answer = 'second';
    expect((await invokeEarly(api, 'sessions:list', {})).map((r) => r.id)).toEqual(['first']);
    expect(bridge.callsTo('sessions:list')).toBe(1);
    expect((await invokeEarly(api, 'sessions:list', {})).map((r) => r.id)).toEqual(['second']);
    expect(bridge.callsTo('sessions:list')).toBe(2);
  });

  it('matches the payload too: another request is asked anew', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', (payload) => okResult([row({ id: JSON.stringify(payload) })]));
    const api = apiFor(bridge);
    askEarly(api, 'sessions:list', {}, 'session:changed');
    expect((await invokeEarly(api, 'sessions:list', { includeArchived: true })).map((r) => r.id)).toEqual(['{"includeArchived":true}']);
    expect(bridge.callsTo('sessions:list')).toBe(2);
  });

  it('drops an answer its staleness event overtook: the component would not have heard the event', async () => {
    let answer = 'before the change';
    const bridge = new MemoryBridge().handle('sessions:list', () => okResult([row({ id: answer })]));
    const api = apiFor(bridge);
    askEarly(api, 'sessions:list', {}, 'session:changed');
    answer = 'after the change';
    bridge.emit('session:changed', { id: 'x', reason: 'handoff' });
    expect((await invokeEarly(api, 'sessions:list', {})).map((r) => r.id)).toEqual(['after the change']);
    expect(bridge.listenerCount('session:changed')).toBe(0);
  });

  it('a failure is the taker\'s, as invoke gives it; one nobody takes is not an unhandled rejection', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => errResult('LOCKED', 'the store is locked'));
    const api = apiFor(bridge);
    askEarly(api, 'sessions:list', {}, 'session:changed');
    expect((await rejection(invokeEarly(api, 'sessions:list', {}))).code).toBe('LOCKED');
    // Never taken: vitest fails the run on an unhandled rejection.
    askEarly(api, 'agents:list', { offset: 0, limit: 10 }, 'agents:changed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bridge.listenerCount('session:changed')).toBe(0);
  });
});
