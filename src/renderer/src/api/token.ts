/**
 * The browser host prints `http://127.0.0.1:<port>/?token=<token>` (or `#token=`). The token is
 * read once, kept in sessionStorage so a reload still works, and removed from the address bar so
 * it does not end up in screenshots, bookmarks or the history list.
 */
export const TOKEN_STORAGE_KEY = 'baton.token';
export const TOKEN_PARAM = 'token';
/** Anything longer is not a token `baton serve` made; refuse it rather than send it around. */
export const TOKEN_MAX_LENGTH = 512;

export interface TokenEnv {
  location: Pick<Location, 'href'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
}

function usable(token: string | null): token is string {
  return token !== null && token.length > 0 && token.length <= TOKEN_MAX_LENGTH;
}

/** Reads the token from the address (query first, then fragment) or from sessionStorage. */
export function takeToken(env: TokenEnv): string | null {
  const url = new URL(env.location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const fromQuery = url.searchParams.get(TOKEN_PARAM);
  const fromHash = hash.get(TOKEN_PARAM);
  const fromAddress = usable(fromQuery) ? fromQuery : usable(fromHash) ? fromHash : null;

  if (fromQuery !== null || fromHash !== null) {
    if (fromQuery !== null) url.searchParams.delete(TOKEN_PARAM);
    // Only a fragment that carried the token is rewritten; a plain `#anchor` stays as it was.
    if (fromHash !== null) {
      hash.delete(TOKEN_PARAM);
      const rest = hash.toString();
      url.hash = rest.length > 0 ? rest : '';
    }
    env.history.replaceState(env.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }

  if (fromAddress !== null) {
    writeStorage(env, fromAddress);
    return fromAddress;
  }
  const stored = readStorage(env);
  return usable(stored) ? stored : null;
}

// Storage can be disabled (privacy settings) and then throws: the token from the address still
// works for this page load, only a reload will ask for it again.
function writeStorage(env: TokenEnv, token: string): void {
  try {
    env.sessionStorage?.setItem(TOKEN_STORAGE_KEY, token);
  } catch (error) {
    console.warn('Baton: sessionStorage is unavailable; a reload will need the token again', error);
  }
}

function readStorage(env: TokenEnv): string | null {
  try {
    return env.sessionStorage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The WebSocket address of the browser host that served this page. */
export function wsUrlFor(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`;
}

/** Reading window.sessionStorage itself throws when storage is disabled. */
export function safeSessionStorage(win: Window): Storage | undefined {
  try {
    return win.sessionStorage;
  } catch {
    return undefined;
  }
}
