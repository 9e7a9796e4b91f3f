import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import type { BatonApi } from '../../api';
import type { LockState } from '../../../../shared/lock-contract';
import { UnlockScreen } from '../../components/lazy-views';
import { ViewFallback } from '../../components/ViewFallback';

/**
 * Shows the app, or the unlock screen while the host's passphrase store is locked (issue 17). The
 * app renders at once (a store without a passphrase answers `open`, and the first screen must not
 * wait for an extra round trip); a locked answer replaces it, and `store:lock-changed` from the
 * host (another window's Lock or unlock) switches every window.
 */
export function LockGate({ api, children }: { api: BatonApi; children: ReactNode }) {
  const [lock, setLock] = useState<LockState | null>(null);
  const refresh = useCallback(() => {
    api.invoke('store:lock-state', {}).then(setLock, () => undefined);
  }, [api]);

  useEffect(() => {
    refresh();
    const offChange = api.on('store:lock-changed', refresh);
    // After a dropped connection the host may have restarted, locked.
    const offConnection = api.onConnection((state) => state.status === 'connected' && refresh());
    return () => {
      offChange();
      offConnection();
    };
  }, [api, refresh]);

  if (lock?.state === 'locked') {
    return (
      <Suspense fallback={<ViewFallback />}>
        <UnlockScreen api={api} state={lock} onUnlocked={setLock} />
      </Suspense>
    );
  }
  return (
    <>
      {children}
      {lock?.state === 'unlocked' && <LockButton api={api} onLocked={setLock} />}
    </>
  );
}

/** "Lock": the host closes the store and forgets the key; the CLI is refused (exit 6) until the next unlock. */
function LockButton({ api, onLocked }: { api: BatonApi; onLocked: (state: LockState) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="lock-store"
      data-testid="lock-store"
      title="Close the encrypted store and forget its key until the passphrase is entered again"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        api.invoke('store:lock', {}).then(onLocked, () => setBusy(false));
      }}
    >
      Lock
    </button>
  );
}
