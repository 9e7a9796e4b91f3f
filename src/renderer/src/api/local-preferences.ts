import { applyPreferencesPatch, isClientLocalChannel, Preferences, PreferencesPatch, salvagePreferences } from '../../../shared/preferences';
import type { Transport } from './types';

/** The browser host's copy of the client-local preferences (never sent to the host, never handed off). */
export const PREFERENCES_STORAGE_KEY = 'baton.preferences';
/** Bumped with the layout; older copies are read field by field (salvagePreferences). */
export const PREFERENCES_STORAGE_VERSION = 1;

type Outcome = { ok: true; value: Preferences } | { ok: false; error: { code: string; message: string } };

/**
 * Answers `prefs:get` / `prefs:set` from localStorage, exactly as the desktop shell answers them
 * from electron-store: same channels, same schemas, same errors. Storage that is missing or throws
 * (private mode, quota) leaves the defaults in memory for this page.
 */
export function createLocalPreferences(storage: Storage | undefined) {
  let memory: Preferences | null = null;
  const read = (): Preferences => {
    if (memory) return memory;
    try {
      const raw = storage?.getItem(PREFERENCES_STORAGE_KEY);
      const parsed = raw ? (JSON.parse(raw) as { version?: unknown; value?: unknown }) : null;
      memory = salvagePreferences(parsed?.value);
    } catch {
      memory = salvagePreferences(undefined);
    }
    return memory;
  };
  return {
    answer(channel: 'prefs:get' | 'prefs:set', payload: unknown): Outcome {
      if (channel === 'prefs:get') return { ok: true, value: read() };
      const patch = PreferencesPatch.safeParse(payload ?? {});
      if (!patch.success) return { ok: false, error: { code: 'BAD_REQUEST', message: `prefs:set: ${patch.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` } };
      memory = applyPreferencesPatch(read(), patch.data);
      try {
        storage?.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ version: PREFERENCES_STORAGE_VERSION, value: memory }));
      } catch {
        // Quota or disabled storage: the change holds for this page only.
      }
      return { ok: true, value: memory };
    },
  };
}

/** Wraps the browser host's transport so preference channels never leave the page. */
export function withLocalPreferences(inner: Transport, storage: Storage | undefined): Transport {
  const prefs = createLocalPreferences(storage);
  return {
    ...inner,
    kind: inner.kind,
    request: (channel, payload) => (isClientLocalChannel(channel) ? Promise.resolve(prefs.answer(channel, payload)) : inner.request(channel, payload)),
    subscribe: (event, listener) => inner.subscribe(event, listener),
    connection: () => inner.connection(),
    onConnection: (listener) => inner.onConnection(listener),
    close: () => inner.close(),
  };
}
