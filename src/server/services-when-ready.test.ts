import { describe, expect, it } from 'vitest';
import type { UiHostServices } from './browser-host.js';
import { servicesWhenReady } from './services-when-ready.js';

/** Services as the browser host sees them, with events the test emits (the real ones: host-services.test.ts). */
function startedServices() {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const services: UiHostServices = {
    token: Buffer.from('t'),
    dispatch: async (channel, payload) => ({ ok: true, value: { channel, payload } }),
    onUiEvent: (listener) => {
      listeners.add(listener as (event: string, payload: unknown) => void);
      return () => listeners.delete(listener as (event: string, payload: unknown) => void);
    },
  };
  return { services, listeners, emit: (event: string, payload: unknown) => listeners.forEach((l) => l(event, payload)) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('servicesWhenReady', () => {
  it('holds a request until the services have started, then answers it through them', async () => {
    const start = deferred<UiHostServices>();
    const { services } = startedServices();
    const early = servicesWhenReady(Buffer.from('t'), start.promise);
    let answered = false;
    const answer = early.dispatch('agents:list', { limit: 1 }).then((outcome) => ((answered = true), outcome));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    start.resolve(services);
    expect(await answer).toEqual({ ok: true, value: { channel: 'agents:list', payload: { limit: 1 } } });
  });

  it('answers every request with the start\'s error code when the start failed', async () => {
    const start = deferred<UiHostServices>();
    const early = servicesWhenReady(Buffer.from('t'), start.promise);
    const answer = early.dispatch('sessions:list', {});
    start.reject(Object.assign(new Error('the store is locked by a newer Baton'), { code: 'UNSAFE_STORE' }));
    expect(await answer).toMatchObject({ ok: false, error: { code: 'UNSAFE_STORE', message: expect.stringContaining('newer Baton') } });
    expect(await early.dispatch('sessions:list', {})).toMatchObject({ ok: false, error: { code: 'UNSAFE_STORE' } });
  });

  it('a page subscribed before the start hears the events after it; one gone before the start never subscribes', async () => {
    const start = deferred<UiHostServices>();
    const { services, listeners, emit } = startedServices();
    const early = servicesWhenReady(Buffer.from('t'), start.promise);
    const heard: string[] = [];
    early.onUiEvent((event) => void heard.push(event));
    const gone = early.onUiEvent(() => void heard.push('never'));
    gone();
    start.resolve(services);
    await start.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(listeners.size).toBe(1);
    emit('agents:changed', {});
    expect(heard).toEqual(['agents:changed']);
  });
});
