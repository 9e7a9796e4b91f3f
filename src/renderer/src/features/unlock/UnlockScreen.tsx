import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { BatonApi } from '../../api';
import { toApiError } from '../../api';
import type { LockState } from '../../../../shared/lock-contract';

/**
 * The unlock screen of a passphrase store (issue 17). The field is uncontrolled: the passphrase is
 * never kept in React state, is cleared from the DOM the moment it is sent, and only the host's
 * answer (which never repeats it) is shown.
 */
export function UnlockScreen({ api, state, onUnlocked }: { api: BatonApi; state: LockState; onUnlocked: (state: LockState) => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(() => Date.now() + (state.retryAfterMs ?? 0));
  const waitingMs = useCountdown(waitUntil);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = field.current;
    if (input === null || busy || waitingMs > 0) return;
    const passphrase = input.value;
    input.value = '';
    if (passphrase.length === 0) {
      setError('Enter the passphrase of this store.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await api.invoke('store:unlock', { passphrase }));
    } catch (thrown) {
      const failure = toApiError(thrown, 'store:unlock');
      setError(failure.code === 'KEY_UNAVAILABLE' ? 'Wrong passphrase: the store stays locked, nothing was written.' : failure.message);
      // The host doubles its wait after each wrong passphrase; ask it how long.
      const after = await api.invoke('store:lock-state', {}).catch(() => null);
      setWaitUntil(Date.now() + (after?.retryAfterMs ?? 0));
    } finally {
      setBusy(false);
      input.focus();
    }
  }

  return (
    <main className="unlock-screen" data-testid="unlock-screen">
      <form className="unlock-card" onSubmit={(event) => void submit(event)} autoComplete="off">
        <h1>Baton is locked</h1>
        <p>
          The sessions in <code>{state.dataDir}</code> are encrypted with a passphrase. It is kept only in this host's memory
          while it runs, and never written anywhere.
        </p>
        <label htmlFor="unlock-passphrase">Passphrase</label>
        <input id="unlock-passphrase" data-testid="unlock-passphrase" ref={field} type="password" autoComplete="current-password" autoFocus spellCheck={false} disabled={busy} />
        <button type="submit" data-testid="unlock-submit" disabled={busy || waitingMs > 0}>
          {busy ? 'Unlocking…' : waitingMs > 0 ? `Try again in ${Math.ceil(waitingMs / 1000)} s` : 'Unlock'}
        </button>
        {error !== null && (
          <p role="alert" className="unlock-error" data-testid="unlock-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

/** Milliseconds left until `until`, re-rendering every 250 ms until it is reached. */
function useCountdown(until: number): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      setTick((tick) => tick + 1);
      if (Date.now() >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, until - Date.now());
}
