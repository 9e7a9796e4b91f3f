// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../../shared/preferences';
import { createApi, createApiFromTransport } from './create-api';
import { PREFERENCES_STORAGE_KEY, withLocalPreferences } from './local-preferences';
import type { Transport } from './types';

/** A host transport that records what reaches the host. */
function recordingTransport(): Transport & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    kind: 'browser',
    request: async (channel) => {
      sent.push(channel);
      return { ok: true, value: { host: 'browser', version: '0', dataDir: '/d', endpoint: 'e' } };
    },
    subscribe: () => () => undefined,
    connection: () => ({ status: 'connected' }),
    onConnection: () => () => undefined,
    close: () => undefined,
  };
}

beforeEach(() => window.localStorage.clear());

describe('browser host preferences (localStorage, same UI contract)', () => {
  it('prefs:get / prefs:set are answered in the page and never reach the host', async () => {
    const inner = recordingTransport();
    const api = createApiFromTransport(withLocalPreferences(inner, window.localStorage));
    expect(await api.invoke('prefs:get', {})).toEqual(DEFAULT_PREFERENCES);
    const next = await api.invoke('prefs:set', { theme: 'light', notifications: { approvals: false } });
    expect(next).toEqual({ ...DEFAULT_PREFERENCES, theme: 'light', notifications: { approvals: false, minimumRisk: 'low' } });
    await api.invoke('host:info', {});
    expect(inner.sent).toEqual(['host:info']);
    const stored = JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY)!);
    expect(stored).toEqual({ version: 1, value: next });
  });

  it('survives a reload (a new API over the same storage)', async () => {
    const first = createApiFromTransport(withLocalPreferences(recordingTransport(), window.localStorage));
    await first.invoke('prefs:set', { sidebarWidth: 360, approvalSound: true });
    const second = createApiFromTransport(withLocalPreferences(recordingTransport(), window.localStorage));
    expect(await second.invoke('prefs:get', {})).toMatchObject({ sidebarWidth: 360, approvalSound: true });
  });

  it('refuses what the desktop shell refuses: the contract schema runs before the store', async () => {
    const api = createApiFromTransport(withLocalPreferences(recordingTransport(), window.localStorage));
    await expect(api.invoke('prefs:set', { sidebarWidth: 5 } as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const raw = withLocalPreferences(recordingTransport(), window.localStorage);
    expect(await raw.request('prefs:set', { theme: 'neon' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await raw.request('prefs:set', { handoff: true })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('a damaged stored copy keeps every good field and defaults the bad ones', async () => {
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ version: 1, value: { theme: 'dark', sidebarWidth: 'wide', approvalSound: true } }));
    const api = createApiFromTransport(withLocalPreferences(recordingTransport(), window.localStorage));
    expect(await api.invoke('prefs:get', {})).toEqual({ ...DEFAULT_PREFERENCES, theme: 'dark', approvalSound: true });
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, '{not json');
    const again = createApiFromTransport(withLocalPreferences(recordingTransport(), window.localStorage));
    expect(await again.invoke('prefs:get', {})).toEqual(DEFAULT_PREFERENCES);
  });

  it('without storage the defaults hold in memory for the page', async () => {
    const api = createApiFromTransport(withLocalPreferences(recordingTransport(), undefined));
    expect(await api.invoke('prefs:set', { theme: 'dark' })).toMatchObject({ theme: 'dark' });
    expect(await api.invoke('prefs:get', {})).toMatchObject({ theme: 'dark' });
  });

  it('createApi wires it for the browser host (here: a page without a token)', async () => {
    const api = createApi({ window });
    expect(api.kind).toBe('browser');
    await api.invoke('prefs:set', { theme: 'light' });
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY)!).value.theme).toBe('light');
    api.close();
  });
});
