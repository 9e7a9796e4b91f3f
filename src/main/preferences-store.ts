import ElectronStore from 'electron-store';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BATON_VERSION } from '../core/version.js';
import { applyPreferencesPatch, DEFAULT_PREFERENCES, Preferences, PreferencesPatch, salvagePreferences, SIDEBAR_WIDTH } from '../shared/preferences.js';

/** electron-store's file, in Electron's userData folder: not in BATON_HOME, so never handed off or exported. */
export const PREFERENCES_FILE_NAME = 'preferences';

/** The JSON Schema electron-store validates with, derived from the one zod schema both hosts use. */
function jsonSchemaOf(): Record<string, object> {
  const schema: Record<string, object> = {};
  for (const key of Object.keys(Preferences.shape) as (keyof Preferences)[]) {
    const { $schema: _drop, ...field } = z.toJSONSchema(Preferences.shape[key], { target: 'draft-7' }) as Record<string, unknown>;
    schema[key] = { ...field, default: DEFAULT_PREFERENCES[key] };
  }
  return schema;
}

type Store = ElectronStore<Preferences>;

/**
 * Migrations by app version (electron-store runs each once, in order). 0.1.0 is the first stored
 * layout; prototype builds kept `notifications` as a boolean, `bounds` instead of `windowBounds`
 * and any sidebar width, which 0.1.0 reads into the current shape.
 */
export const PREFERENCE_MIGRATIONS: Record<string, (store: Store) => void> = {
  '0.1.0': (store) => {
    const raw = store.store as unknown as Record<string, unknown>;
    if (typeof raw.notifications === 'boolean') store.set('notifications', { approvals: raw.notifications, minimumRisk: 'low' });
    if ('bounds' in raw) {
      store.set('windowBounds', salvagePreferences({ windowBounds: raw.bounds }).windowBounds);
      (store as unknown as { delete(key: string): void }).delete('bounds');
    }
    if (typeof raw.sidebarWidth === 'number') store.set('sidebarWidth', Math.round(Math.min(SIDEBAR_WIDTH.max, Math.max(SIDEBAR_WIDTH.min, raw.sidebarWidth))));
  },
};

export interface PreferencesStore {
  readonly path: string;
  get(): Preferences;
  set(patch: unknown): { ok: true; value: Preferences } | { ok: false; error: { code: string; message: string } };
}

/**
 * Opens the preferences. A file that fails the schema or does not parse is moved aside (kept for
 * a bug report, named in the log) and the preferences start from their defaults.
 */
export function openPreferences(dir: string, projectVersion = BATON_VERSION): PreferencesStore {
  type Options = NonNullable<ConstructorParameters<typeof ElectronStore<Preferences>>[0]>;
  // The schema is generated from zod, so its static type is looser than electron-store's mapped one.
  const options = { cwd: dir, name: PREFERENCES_FILE_NAME, schema: jsonSchemaOf(), migrations: PREFERENCE_MIGRATIONS, projectVersion } as unknown as Options;
  let store: Store;
  try {
    store = new ElectronStore<Preferences>(options);
  } catch (error) {
    const file = join(dir, `${PREFERENCES_FILE_NAME}.json`);
    if (!existsSync(file)) throw error;
    const aside = `${file}.broken-${Date.now()}`;
    renameSync(file, aside);
    console.warn(`[baton] preferences at ${file} were unreadable (${(error as Error).message}); kept as ${aside}, starting from defaults`);
    store = new ElectronStore<Preferences>(options);
  }
  return {
    path: store.path,
    get: () => salvagePreferences(store.store),
    set(patch) {
      const parsed = PreferencesPatch.safeParse(patch ?? {});
      if (!parsed.success) return { ok: false, error: { code: 'BAD_REQUEST', message: `prefs:set: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` } };
      const next = applyPreferencesPatch(salvagePreferences(store.store), parsed.data);
      store.set(next);
      return { ok: true, value: next };
    },
  };
}
