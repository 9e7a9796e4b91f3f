import { useEffect, useState, type FormEvent } from 'react';
import type { TerminalCommand } from '../../../../shared/agents';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { LeaveRunsToggle } from './LeaveRunsToggle';
import { RunApprovals } from './RunApprovals';
import { RunStream } from './RunStream';
import { useComposer } from './use-composer';

/**
 * Continue the session in the desktop (issue 19): a follow-up runs the session's own agent
 * headless, resuming it by its id; the run streams above the box, its approvals are asked here,
 * Stop interrupts it. A session with no agent behind it says why the box is off.
 */
export function Composer({ sessionId, externalId }: { sessionId: string; externalId: string | null }) {
  const api = useApi();
  const { state, setStatus } = useComposer(sessionId);
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [handedBack, setHandedBack] = useState<TerminalCommand | null>(null);
  useEffect(() => {
    setPrompt('');
    setModel(null);
    setError(null);
    setHandedBack(null);
  }, [sessionId]);

  if (state.kind === 'loading') return null;
  if (state.kind === 'failed') {
    return (
      <p className="inline-error" role="alert" data-testid="composer-error">
        The composer could not load: {state.error.message}
      </p>
    );
  }
  const status = state.status;
  const running = status.run !== null && (status.run.state === 'running' || status.run.state === 'stopping');
  const chosen = model ?? status.model ?? status.models[0] ?? null;

  function send(event: FormEvent): void {
    event.preventDefault();
    const text = prompt.trim();
    if (text === '') return;
    setError(null);
    setHandedBack(null);
    api.invoke('composer:send', { sessionId, prompt: text, ...(model !== null && model !== status.model ? { model } : {}) }).then(
      (next) => {
        setPrompt('');
        setStatus(next);
      },
      (e: unknown) => setError(toApiError(e, 'composer:send').message),
    );
  }

  function stop(): void {
    api.invoke('composer:stop', { sessionId }).then(setStatus, (e: unknown) => setError(toApiError(e, 'composer:stop').message));
  }

  function handBack(): void {
    api
      .invoke('composer:hand-back', { sessionId })
      .then(() => api.invoke('terminal:command', { sessionId }))
      .then(setHandedBack, (e: unknown) => setError(toApiError(e, 'composer:hand-back').message));
  }

  return (
    <section className="composer" aria-label="Continue here" data-testid="composer" data-available={status.available}>
      {status.run !== null && <RunStream run={status.run} />}
      <RunApprovals sessionId={sessionId} externalId={externalId} />
      {!status.available ? (
        <p className="composer-off muted" data-testid="composer-off">
          {status.reason} Use “Continue in terminal” above.
        </p>
      ) : (
        <form className="composer-form" onSubmit={send}>
          <label className="visually-hidden" htmlFor="composer-input">
            Follow-up for the agent
          </label>
          <textarea
            id="composer-input"
            data-testid="composer-input"
            rows={3}
            value={prompt}
            placeholder={running ? 'The agent is working; a follow-up now waits its turn.' : 'Ask the agent to go on…'}
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) send(e);
            }}
          />
          <div className="composer-bar">
            <label className="composer-model">
              Model{' '}
              <select data-testid="composer-model" value={chosen ?? ''} onChange={(e) => setModel(e.target.value)}>
                {status.models.map((m) => (
                  <option key={m} value={m}>
                    {m === status.model ? `${m} (recorded)` : m}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted composer-approvals">{status.approvals}</span>
            {running && (
              <button type="button" className="button button-small button-secondary" data-testid="composer-stop" onClick={stop} disabled={status.run?.state === 'stopping'}>
                Stop
              </button>
            )}
            {!running && status.run !== null && (
              <button type="button" className="button button-small button-secondary" data-testid="composer-hand-back" onClick={handBack}>
                Continue in terminal
              </button>
            )}
            <button type="submit" className="button button-small" data-testid="composer-send" disabled={prompt.trim() === ''}>
              {running ? 'Queue' : 'Send'}
            </button>
          </div>
          <LeaveRunsToggle />
          {status.queued !== null && (
            <p className="muted" data-testid="composer-queued">
              Queued: “{status.queued}” runs when this turn ends.
            </p>
          )}
        </form>
      )}
      {handedBack !== null && (
        <p className="composer-handed-back" data-testid="composer-handed-back">
          The baton is back with the terminal. Run: <code>{handedBack.shellLine}</code>
        </p>
      )}
      {error !== null && (
        <p className="inline-error" role="alert" data-testid="composer-error">
          {error}
        </p>
      )}
    </section>
  );
}
