import { useCallback, useEffect, useState } from 'react';
import { SELECTION_PARAM } from './use-selection';

/** The open session's tab lives next to its id in the address fragment: `#session=<id>&tab=changes`. */
export const TAB_PARAM = 'tab';
export const SESSION_TABS = ['conversation', 'changes', 'history'] as const;
export type SessionTab = (typeof SESSION_TABS)[number];
export const DEFAULT_TAB: SessionTab = 'conversation';

function isSessionTab(value: string | null): value is SessionTab {
  return value !== null && (SESSION_TABS as readonly string[]).includes(value);
}

/** The tab the fragment names for this session; a tab written for another session does not count. */
export function tabFromHash(hash: string, sessionId: string): SessionTab | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.get(SELECTION_PARAM) !== sessionId) return null;
  const tab = params.get(TAB_PARAM);
  return isSessionTab(tab) ? tab : null;
}

/** The fragment with this tab; the default tab is left out so plain links stay short. */
export function hashForTab(hash: string, tab: SessionTab): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (tab === DEFAULT_TAB) params.delete(TAB_PARAM);
  else params.set(TAB_PARAM, tab);
  const rest = params.toString();
  return rest.length > 0 ? `#${rest}` : '';
}

// Each session's last tab for this page's lifetime, so going back to a session reopens where you were.
const remembered = new Map<string, SessionTab>();

function writeHash(tab: SessionTab): void {
  const { pathname, search, hash } = window.location;
  const next = hashForTab(hash, tab);
  if (next !== hash) window.history.replaceState(window.history.state, '', `${pathname}${search}${next}`);
}

/** The open tab of one session: from the fragment on first load, then remembered per session. */
export function useSessionTab(sessionId: string): [SessionTab, (tab: SessionTab) => void] {
  const initial = (): SessionTab => tabFromHash(window.location.hash, sessionId) ?? remembered.get(sessionId) ?? DEFAULT_TAB;
  const [state, setState] = useState<{ id: string; tab: SessionTab }>(() => ({ id: sessionId, tab: initial() }));
  const tab = state.id === sessionId ? state.tab : initial();

  useEffect(() => {
    if (state.id !== sessionId) setState({ id: sessionId, tab });
    remembered.set(sessionId, tab);
    writeHash(tab);
  }, [sessionId, tab, state.id]);

  const select = useCallback((next: SessionTab) => setState({ id: sessionId, tab: next }), [sessionId]);
  return [tab, select];
}
