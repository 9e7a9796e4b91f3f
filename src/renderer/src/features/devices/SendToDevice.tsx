import { useCallback, useEffect, useState } from 'react';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';

type State = { kind: 'idle' } | { kind: 'sending'; to: string } | { kind: 'done'; ok: boolean; message: string };

/** "Send to device": the session handed to a paired device through the relay; shown only when devices are paired. */
export function SendToDevice({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('devices:list', {}), [api]);
  const devices = useRemote('devices:list', load);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setState({ kind: 'idle' });
    setOpen(false);
  }, [sessionId]);
  if (!devices.value || devices.value.length === 0) return null;

  function send(to: string): void {
    setState({ kind: 'sending', to });
    api.invoke('devices:send', { sessionId, to }).then(
      (answer) => setState({ kind: 'done', ok: answer.category === 'accepted' || answer.category === 'duplicate' || answer.category === 'queued', message: answer.message }),
      (error: unknown) => setState({ kind: 'done', ok: false, message: toApiError(error, 'devices:send').message }),
    );
  }

  return (
    <div className="send-to-device">
      <button type="button" className="button" data-testid="send-to-device" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Send to device
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label="Send to device">
          <ul>
            {devices.value.map((d) => (
              <li key={d.deviceId}>
                <button type="button" className="button-link" disabled={state.kind === 'sending'} data-device={d.name} onClick={() => send(d.deviceId)}>
                  {d.name} {d.online === true ? '(online)' : d.online === false ? '(offline: queued until it returns)' : ''}
                </button>
              </li>
            ))}
          </ul>
          {state.kind === 'sending' && <p className="muted">Sending…</p>}
          {state.kind === 'done' && (
            <p role="status" data-testid="send-result" className={state.ok ? '' : 'error'}>
              {state.message}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
