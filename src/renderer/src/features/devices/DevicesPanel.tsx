import { useCallback, useEffect, useState } from 'react';
import { toApiError } from '../../api';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { relayLabel } from './relay-label';

/** Paired devices with their presence, this device's fingerprint, and how to pair (issue 13). */
export function DevicesPanel({ initialCode = null }: { initialCode?: string | null }) {
  const api = useApi();
  const loadStatus = useCallback(() => api.invoke('relay:status', {}), [api]);
  const loadDevices = useCallback(() => api.invoke('devices:list', {}), [api]);
  const status = useRemote('relay:status', loadStatus);
  const devices = useRemote('devices:list', loadDevices);
  const reloadDevices = devices.reload;
  useEffect(() => api.on('devices:changed', () => reloadDevices()), [api, reloadDevices]);

  if (status.value === undefined || devices.value === undefined) {
    const error = status.error ?? devices.error;
    return (
      <section className="panel" aria-labelledby="devices-title">
        <h1 id="devices-title">Devices</h1>
        {error !== undefined ? <ErrorState what="Could not load the devices." error={error} onRetry={() => { status.reload(); devices.reload(); }} /> : <Skeleton rows={2} label="Loading devices…" />}
      </section>
    );
  }
  const relay = status.value;
  const dropped = Object.entries(relay.received?.dropped ?? {});
  return (
    <section className="panel" aria-labelledby="devices-title" data-testid="devices-panel">
      <h1 id="devices-title">Devices</h1>
      <p data-testid="relay-state">
        {relayLabel(relay)}
        {relay.url !== null && <span className="muted"> — {relay.url}</span>}
        {relay.error !== null && <span className="muted"> ({relay.error})</span>}
      </p>
      {!relay.configured && (
        <p className="muted">
          Sessions stay on this machine. To hand them to another machine, connect a NATS relay: <code>baton relay connect nats://HOST:PORT</code>
        </p>
      )}
      {relay.device !== null && (
        <p data-testid="this-device">
          This device: <strong>{relay.device.name}</strong> <code>{relay.device.fingerprint}</code>
        </p>
      )}
      {relay.state === 'online' && <Pairing key={initialCode ?? ''} initialCode={initialCode} />}
      <h2 className="section-title">Paired devices</h2>
      {devices.value.length === 0 ? (
        <p className="muted" data-testid="no-devices">
          None yet. Run <code>baton device pair</code> here and <code>baton device join CODE</code> on the other device, then compare the fingerprints.
        </p>
      ) : (
        <ul className="device-list" data-testid="device-list">
          {devices.value.map((d) => (
            <li key={d.deviceId} data-device={d.name} data-online={String(d.online)}>
              <span aria-label={d.online === null ? 'presence unknown' : d.online ? 'online' : 'offline'}>{d.online === null ? '○' : d.online ? '●' : '○'}</span> <strong>{d.name}</strong>{' '}
              <code>{d.fingerprint}</code> <span className="muted">paired {new Date(d.pairedAt).toLocaleString()}</span>
            </li>
          ))}
        </ul>
      )}
      {relay.received !== null && (
        <p className="muted" data-testid="relay-received">
          Received: {relay.received.accepted} accepted, {relay.received.duplicate} duplicate, {relay.received.rejected} rejected
          {dropped.length > 0 && `; dropped ${dropped.map(([reason, n]) => `${n} ${reason}`).join(', ')}`}
        </p>
      )}
    </section>
  );
}

type PairState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'code'; code: string; link: string; expiresAt: string } | { kind: 'joined'; name: string; fingerprint: string } | { kind: 'failed'; message: string };

/** Pairing from the app: show a one-time code here, or type the other device's code. */
function Pairing({ initialCode }: { initialCode: string | null }) {
  const api = useApi();
  const [state, setState] = useState<PairState>({ kind: 'idle' });
  const [code, setCode] = useState(initialCode ?? '');
  const fail = (channel: string) => (error: unknown) => setState({ kind: 'failed', message: toApiError(error, channel).message });
  return (
    <div className="pairing" data-testid="pairing">
      <button type="button" className="button" data-testid="pair-start" disabled={state.kind === 'busy'} onClick={() => {
        setState({ kind: 'busy' });
        api.invoke('devices:pair', {}).then((p) => setState({ kind: 'code', ...p }), fail('devices:pair'));
      }}>
        Pair a device
      </button>
      <form onSubmit={(event) => {
        event.preventDefault();
        setState({ kind: 'busy' });
        api.invoke('devices:join', { code }).then((d) => setState({ kind: 'joined', name: d.name, fingerprint: d.fingerprint }), fail('devices:join'));
      }}>
        <label>
          or join with a code <input value={code} onChange={(e) => setCode(e.target.value)} data-testid="pair-code-input" autoComplete="off" spellCheck={false} />
        </label>
        <button type="submit" className="button" disabled={code.trim() === '' || state.kind === 'busy'} data-testid="pair-join">Join</button>
      </form>
      {state.kind === 'code' && (
        <p data-testid="pair-code">
          On the other device run <code>baton device join {state.code}</code> (or open <code>{state.link}</code>). The code works once, until {new Date(state.expiresAt).toLocaleTimeString()}.
        </p>
      )}
      {state.kind === 'joined' && (
        <p data-testid="pair-joined">
          Paired with <strong>{state.name}</strong>: check that it shows <code>{state.fingerprint}</code>.
        </p>
      )}
      {state.kind === 'failed' && <p className="error" role="alert" data-testid="pair-failed">{state.message}</p>}
    </div>
  );
}
