import { useCallback, useState } from 'react';

/** The open session lives in the address fragment (`#session=<id>`) so a reload or a link reopens it. */
export const SELECTION_PARAM = 'session';

export function selectionFromHash(hash: string): string | null {
  const id = new URLSearchParams(hash.replace(/^#/, '')).get(SELECTION_PARAM);
  return id !== null && id.length > 0 ? id : null;
}

export function hashForSelection(hash: string, id: string | null): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (id === null) params.delete(SELECTION_PARAM);
  else params.set(SELECTION_PARAM, id);
  const rest = params.toString();
  return rest.length > 0 ? `#${rest}` : '';
}

/** The selected session id, read from and written back to the address without adding history entries. */
export function useSelection(): [string | null, (id: string | null) => void] {
  const [selected, setSelected] = useState<string | null>(() => selectionFromHash(window.location.hash));
  const select = useCallback((id: string | null) => {
    setSelected(id);
    const { pathname, search, hash } = window.location;
    const next = hashForSelection(hash, id);
    if (next !== hash) window.history.replaceState(window.history.state, '', `${pathname}${search}${next}`);
  }, []);
  return [selected, select];
}
