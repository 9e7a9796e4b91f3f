import { useCallback, useState } from 'react';
import { loadCollapsed, saveCollapsed, toggleCollapsed } from '../../model/collapsed-groups';

function localStorageOrUndefined(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // reading localStorage throws when storage is disabled
  }
}

/** Collapsed directory groups, remembered in localStorage across reloads (client-local state). */
export function useCollapsedGroups(): [ReadonlySet<string>, (cwd: string) => void] {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => loadCollapsed(localStorageOrUndefined()));
  const toggle = useCallback((cwd: string) => {
    setCollapsed((current) => {
      const next = toggleCollapsed(current, cwd);
      saveCollapsed(localStorageOrUndefined(), next);
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
