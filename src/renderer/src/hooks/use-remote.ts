import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api';

export interface Remote<T> {
  /** The last value that arrived for the current key; kept while a reload is in flight or fails. */
  value: T | undefined;
  /** The last failure; cleared by the next success. */
  error: ApiError | undefined;
  loading: boolean;
  /** Fetches again, keeping what is shown. Reloads asked for during a fetch coalesce into one. */
  reload: () => void;
}

interface State<T> {
  key: string;
  value: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
}

/**
 * Data from the host for one key (a channel + its arguments). A new key starts empty, so a
 * different session never shows the previous one's content; answers for an old key are dropped.
 * `load` null means "nothing to fetch".
 */
export function useRemote<T>(key: string, load: (() => Promise<T>) | null): Remote<T> {
  const [state, setState] = useState<State<T>>({ key, value: undefined, error: undefined, loading: load !== null });
  const loadRef = useRef(load);
  loadRef.current = load;
  const run = useRef({ key, inFlight: false, again: false, alive: true });

  const fetchNow = useCallback((forKey: string): void => {
    const current = loadRef.current;
    const control = run.current;
    if (current === null) return;
    if (control.inFlight) {
      control.again = true;
      return;
    }
    control.inFlight = true;
    setState((s) => (s.key === forKey ? { ...s, loading: true } : s));
    const finish = (patch: Partial<State<T>>): void => {
      if (!control.alive || control.key !== forKey) return;
      control.inFlight = false;
      setState((s) => (s.key === forKey ? { ...s, ...patch, loading: false } : s));
      if (control.again) {
        control.again = false;
        fetchNow(forKey);
      }
    };
    current().then(
      (value) => finish({ value, error: undefined }),
      (error: unknown) => finish({ error: toApiError(error) }),
    );
  }, []);

  useEffect(() => {
    const control = { key, inFlight: false, again: false, alive: true };
    run.current = control;
    setState({ key, value: undefined, error: undefined, loading: loadRef.current !== null });
    fetchNow(key);
    return () => {
      control.alive = false;
    };
  }, [key, fetchNow]);

  const reload = useCallback(() => fetchNow(run.current.key), [fetchNow]);
  // Until the effect for a new key has run, report the new key as loading, never the old value.
  if (state.key !== key) return { value: undefined, error: undefined, loading: load !== null, reload };
  return { value: state.value, error: state.error, loading: state.loading, reload };
}
