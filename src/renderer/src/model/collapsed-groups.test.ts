import { describe, expect, it } from 'vitest';
import { COLLAPSED_STORAGE_KEY, loadCollapsed, MAX_REMEMBERED_GROUPS, saveCollapsed, toggleCollapsed } from './collapsed-groups';

class MapStorage {
  readonly map = new Map<string, string>();
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, value);
  }
}

describe('collapsed groups', () => {
  it('round-trips through storage', () => {
    const storage = new MapStorage();
    saveCollapsed(storage, new Set(['/a', 'C:\\w']));
    expect([...loadCollapsed(storage)]).toEqual(['/a', 'C:\\w']);
  });

  const garbage: Array<[string, string]> = [
    ['not JSON', '{nope'],
    ['an object', '{"a":1}'],
    ['a number', '3'],
  ];
  for (const [name, raw] of garbage) {
    it(`garbage (${name}) reads as nothing collapsed`, () => {
      const storage = new MapStorage();
      storage.setItem(COLLAPSED_STORAGE_KEY, raw);
      expect(loadCollapsed(storage).size).toBe(0);
    });
  }

  it('non-strings inside the list are dropped', () => {
    const storage = new MapStorage();
    storage.setItem(COLLAPSED_STORAGE_KEY, '["/a", 3, null, "/b"]');
    expect([...loadCollapsed(storage)]).toEqual(['/a', '/b']);
  });

  it('storage that throws is survived both ways', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(loadCollapsed(broken).size).toBe(0);
    expect(() => saveCollapsed(broken, new Set(['/a']))).not.toThrow();
    expect(loadCollapsed(undefined).size).toBe(0);
  });

  it('keeps at most MAX_REMEMBERED_GROUPS, newest toggles kept', () => {
    const storage = new MapStorage();
    let set = new Set<string>();
    for (let i = 0; i < MAX_REMEMBERED_GROUPS + 10; i++) set = toggleCollapsed(set, `/p/${i}`);
    saveCollapsed(storage, set);
    const loaded = loadCollapsed(storage);
    expect(loaded.size).toBe(MAX_REMEMBERED_GROUPS);
    expect(loaded.has(`/p/${MAX_REMEMBERED_GROUPS + 9}`)).toBe(true);
    expect(loaded.has('/p/0')).toBe(false);
  });

  it('toggle adds then removes, without touching the input', () => {
    const start = new Set(['/x']);
    const added = toggleCollapsed(start, '/y');
    expect([...added]).toEqual(['/x', '/y']);
    expect([...toggleCollapsed(added, '/x')]).toEqual(['/y']);
    expect([...start]).toEqual(['/x']);
  });
});
