import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PREFERENCES } from '../shared/preferences.js';
import { resetFakeElectron } from './test-support/fake-electron.js';

vi.mock('electron', () => import('./test-support/fake-electron.js'));

const { openPreferences } = await import('./preferences-store.js');

let dir: string;
beforeEach(async () => {
  resetFakeElectron();
  dir = await mkdtemp(join(tmpdir(), 'baton-prefs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const file = () => join(dir, 'preferences.json');

describe('desktop preferences (electron-store)', () => {
  it('starts from the defaults and persists a change across opens', async () => {
    const prefs = openPreferences(dir);
    expect(prefs.path).toBe(file());
    expect(prefs.get()).toEqual(DEFAULT_PREFERENCES);
    expect(prefs.set({ approvalSound: true, sidebarWidth: 400 })).toMatchObject({ ok: true, value: { approvalSound: true, sidebarWidth: 400 } });
    expect(openPreferences(dir).get()).toMatchObject({ approvalSound: true, sidebarWidth: 400, theme: 'system' });
    const stored = JSON.parse(await readFile(file(), 'utf8'));
    expect(stored.__internal__.migrations.version).toBe('0.1.0');
  });

  it.each([
    [{ theme: 'purple' }, 'theme'],
    [{ sidebarWidth: 10_000 }, 'sidebarWidth'],
    [{ windowBounds: { x: 0, y: 0, width: 10, height: 10, maximized: false } }, 'windowBounds.width'],
    [{ notifications: { minimumRisk: 'extreme' } }, 'notifications.minimumRisk'],
    [{ handoff: 'x' }, 'handoff'],
  ])('refuses %j with the path named, and changes nothing', (patch, path) => {
    const prefs = openPreferences(dir);
    const result = prefs.set(patch);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain(path.split('.')[0]!);
    expect(prefs.get()).toEqual(DEFAULT_PREFERENCES);
  });

  it('electron-store validates the file against the schema: a hand-edited bad value is moved aside, defaults used', async () => {
    openPreferences(dir).set({ theme: 'dark' });
    const stored = JSON.parse(await readFile(file(), 'utf8'));
    await writeFile(file(), JSON.stringify({ ...stored, sidebarWidth: 'wide' }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const prefs = openPreferences(dir);
    expect(prefs.get()).toEqual(DEFAULT_PREFERENCES);
    expect(warn.mock.calls.flat().join(' ')).toContain('sidebarWidth');
    warn.mockRestore();
    const names = await readdir(dir);
    expect(names.some((n) => n.startsWith('preferences.json.broken-'))).toBe(true);
  });

  it('a file that is not JSON is moved aside too', async () => {
    await writeFile(file(), '{"theme": "dark"');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(openPreferences(dir).get()).toEqual(DEFAULT_PREFERENCES);
    warn.mockRestore();
  });

  it('migration 0.1.0 reads a prototype layout (boolean notifications, `bounds`, unclamped sidebar)', async () => {
    await writeFile(
      file(),
      JSON.stringify({ __internal__: { migrations: { version: '0.0.1' } }, notifications: false, bounds: { x: 5, y: 6, width: 900, height: 600, maximized: false }, sidebarWidth: 1200 }),
    );
    // The prototype layout does not match the schema: migrations run before validation.
    const prefs = openPreferences(dir);
    expect(prefs.get()).toEqual({ ...DEFAULT_PREFERENCES, notifications: { approvals: false, minimumRisk: 'low' }, windowBounds: { x: 5, y: 6, width: 900, height: 600, maximized: false }, sidebarWidth: 640 });
    const stored = JSON.parse(await readFile(file(), 'utf8'));
    expect(stored).not.toHaveProperty('bounds');
    expect(stored.__internal__.migrations.version).toBe('0.1.0');
  });
});
