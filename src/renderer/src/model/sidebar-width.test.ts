import { describe, expect, it } from 'vitest';
import { loadSidebarWidth, saveSidebarWidth, SIDEBAR_DEFAULT_PX, SIDEBAR_MAX_PX, SIDEBAR_MIN_PX, SIDEBAR_WIDTH_KEY } from './sidebar-width';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k), clear: () => map.clear(), key: () => null, length: 0 };
}

describe('sidebar width store', () => {
  it('remembers a width, clamped, and falls back to the default for missing or damaged values', () => {
    const storage = memoryStorage();
    expect(loadSidebarWidth(storage)).toBe(SIDEBAR_DEFAULT_PX);
    saveSidebarWidth(420, storage);
    expect(loadSidebarWidth(storage)).toBe(420);
    saveSidebarWidth(5_000, storage);
    expect(loadSidebarWidth(storage)).toBe(SIDEBAR_MAX_PX);
    storage.setItem(SIDEBAR_WIDTH_KEY, '12');
    expect(loadSidebarWidth(storage)).toBe(SIDEBAR_MIN_PX);
    storage.setItem(SIDEBAR_WIDTH_KEY, 'wide');
    expect(loadSidebarWidth(storage)).toBe(SIDEBAR_DEFAULT_PX);
    expect(() => saveSidebarWidth(300, { setItem: () => { throw new Error('QuotaExceededError'); } })).not.toThrow();
  });
});
