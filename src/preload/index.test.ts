import { beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { BatonBridge } from '../renderer/src/api/baton-bridge.js';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-channels.js';
import { callsOf, contextBridge, fakeEvent, ipcRenderer, resetFakeElectron } from '../main/test-support/fake-electron.js';

vi.mock('electron', () => import('../main/test-support/fake-electron.js'));

let exposed: Record<string, unknown>;
let batonBridge: typeof import('./index.js').batonBridge;

beforeAll(async () => {
  resetFakeElectron();
  ({ batonBridge } = await import('./index.js'));
  exposed = contextBridge.exposed.get('baton') as Record<string, unknown>;
});

describe('preload bridge', () => {
  it('exposes exactly one key, `baton`, once', () => {
    expect(callsOf('contextBridge.exposeInMainWorld').map(([key]) => key)).toEqual(['baton']);
    expect([...contextBridge.exposed.keys()]).toEqual(['baton']);
  });

  it('exposes exactly invoke and on: functions, no Electron or Node object', () => {
    expect(Object.keys(exposed).sort()).toEqual(['invoke', 'on']);
    for (const value of Object.values(exposed)) expect(typeof value).toBe('function');
    expect(exposed).toBe(batonBridge);
  });

  it('is typed as the renderer declares window.baton (a drift fails typecheck)', () => {
    // Compile-time: both directions, and the same keys.
    const asRenderer: BatonBridge = { ...batonBridge, invoke: (c, p) => batonBridge.invoke(c, p) as ReturnType<BatonBridge['invoke']> };
    expectTypeOf<keyof typeof batonBridge>().toEqualTypeOf<keyof BatonBridge>();
    expectTypeOf(batonBridge.on).toEqualTypeOf<BatonBridge['on']>();
    expectTypeOf(batonBridge.invoke).parameters.toEqualTypeOf<Parameters<BatonBridge['invoke']>>();
    expect(Object.keys(asRenderer).sort()).toEqual(['invoke', 'on']);
  });

  it('invoke sends on the one contract channel with the channel name as a string', async () => {
    await batonBridge.invoke('host:info', { a: 1 });
    await (batonBridge.invoke as (c: unknown, p: unknown) => Promise<unknown>)({ toString: () => 'sessions:list' }, {});
    expect(callsOf('ipcRenderer.invoke')).toEqual([
      [IPC_INVOKE, 'host:info', { a: 1 }],
      [IPC_INVOKE, 'sessions:list', {}],
    ]);
  });

  it('on delivers only its own event, without the Electron event object, and unsubscribes', () => {
    const got: unknown[] = [];
    const off = batonBridge.on('tasks:changed', (payload) => got.push(payload));
    ipcRenderer.emit(IPC_EVENT, fakeEvent(), 'tasks:changed', { id: 't1' });
    ipcRenderer.emit(IPC_EVENT, fakeEvent(), 'session:select', { id: 's1' });
    off();
    ipcRenderer.emit(IPC_EVENT, fakeEvent(), 'tasks:changed', { id: 't2' });
    expect(got).toEqual([{ id: 't1' }]);
    expect(ipcRenderer.listenerCount(IPC_EVENT)).toBe(0);
  });
});
