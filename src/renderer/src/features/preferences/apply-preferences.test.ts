// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences';
import { createApiFromTransport } from '../../api/create-api';
import { withLocalPreferences } from '../../api/local-preferences';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { createBridgeTransport } from '../../api/bridge-transport';
import { loadPreferences } from './apply-preferences';
import type { Transport } from '../../api/types';

const unusedHost: Transport = {
  kind: 'browser',
  request: async () => ({ ok: false, error: { code: 'X', message: 'not used' } }),
  subscribe: () => () => undefined,
  connection: () => ({ status: 'connected' }),
  onConnection: () => () => undefined,
  close: () => undefined,
};

beforeEach(() => {
  window.localStorage.clear();
  document.documentElement.removeAttribute('style');
  delete document.documentElement.dataset.theme;
});

describe('preferences on the page', () => {
  it('browser host: the sidebar width and theme from localStorage reach the layout', async () => {
    const api = createApiFromTransport(withLocalPreferences(unusedHost, window.localStorage));
    await api.invoke('prefs:set', { sidebarWidth: 410, theme: 'light' });
    const prefs = await loadPreferences(api, document.documentElement);
    expect(prefs?.sidebarWidth).toBe(410);
    expect(document.documentElement.style.getPropertyValue('--sidebar-width')).toBe('410px');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('desktop host: the same call goes over the bridge to the main process', async () => {
    const bridge = new MemoryBridge().handle('prefs:get', () => okResult({ ...DEFAULT_PREFERENCES, theme: 'dark', sidebarWidth: 250 }));
    const api = createApiFromTransport(createBridgeTransport(bridge));
    await loadPreferences(api, document.documentElement);
    expect(bridge.calls).toEqual([{ channel: 'prefs:get', payload: {} }]);
    expect(document.documentElement.style.getPropertyValue('--sidebar-width')).toBe('250px');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('a host that cannot answer leaves the stylesheet defaults', async () => {
    const bridge = new MemoryBridge();
    const api = createApiFromTransport(createBridgeTransport(bridge));
    const original = console.warn;
    console.warn = () => undefined;
    expect(await loadPreferences(api, document.documentElement)).toBeNull();
    console.warn = original;
    expect(document.documentElement.style.getPropertyValue('--sidebar-width')).toBe('');
  });
});
