import { useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import type { AgentCandidate, TerminalCommand } from '../../../../shared/agents';
import { CandidatePreview } from './CandidatePreview';
import { CopyableCode } from '../../components/CopyableCode';
import { RelativeTime } from '../../components/RelativeTime';
import { SourceBadge } from '../../components/SourceBadge';
import { useApi } from '../../hooks/api-context';
import { formatDateTime } from '../../model/relative-time';
import { formatCount } from '../../model/format-number';

const TOOL_NAMES = { claude: 'Claude Code', codex: 'Codex' } as const;

export interface CandidatePanelProps {
  candidate: AgentCandidate;
  now: number;
  /** "Open in Baton" imported it: select the Baton session it became. */
  onOpened: (sessionId: string) => void;
}

type Action<T> = { status: 'idle' } | { status: 'busy' } | { status: 'done'; value: T } | { status: 'failed'; error: ApiError };

/**
 * A Claude Code or Codex session found on this machine (not in Baton yet): what it is, and the two
 * ways on: bring it into Baton, or get the exact command that continues it in its own terminal tool.
 */
export function CandidatePanel({ candidate, now, onOpened }: CandidatePanelProps) {
  const api = useApi();
  const [importing, setImporting] = useState<Action<{ sessionId: string }>>({ status: 'idle' });
  const [command, setCommand] = useState<Action<TerminalCommand>>({ status: 'idle' });
  const key = `${candidate.source}:${candidate.externalId}`;

  // Another candidate: forget the previous one's answers.
  useEffect(() => {
    setImporting({ status: 'idle' });
    setCommand({ status: 'idle' });
  }, [key]);

  function open(): void {
    setImporting({ status: 'busy' });
    api.invoke('agents:import', { source: candidate.source, path: candidate.path }).then(
      (value) => {
        setImporting({ status: 'done', value });
        onOpened(value.sessionId);
      },
      (error: unknown) => setImporting({ status: 'failed', error: toApiError(error) }),
    );
  }

  function continueInTerminal(): void {
    if (candidate.cwd === null) return;
    setCommand({ status: 'busy' });
    api.invoke('terminal:command', { source: candidate.source, externalId: candidate.externalId, cwd: candidate.cwd }).then(
      (value) => setCommand({ status: 'done', value }),
      (error: unknown) => setCommand({ status: 'failed', error: toApiError(error) }),
    );
  }

  const count = `${candidate.messageCountExact ? '' : '≈'}${formatCount(candidate.messageCount)}`;
  return (
    <article className="candidate-panel" data-testid="candidate-panel" data-source={candidate.source} aria-labelledby="candidate-title">
      <header className="candidate-header">
        <div className="candidate-eyebrow muted">
          <SourceBadge source={candidate.source} /> {TOOL_NAMES[candidate.source]} session on this machine · not in Baton yet
        </div>
        <h1 id="candidate-title" data-testid="candidate-title">
          {candidate.title.length > 0 ? candidate.title : `${candidate.source} session ${candidate.externalId}`}
        </h1>
      </header>

      <dl className="facts session-meta candidate-meta">
        <div>
          <dt>Directory</dt>
          <dd>
            <code data-testid="candidate-cwd">{candidate.cwd ?? 'unknown'}</code>
          </dd>
        </div>
        <div>
          <dt>Branch</dt>
          <dd>{candidate.branch ?? '—'}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            {TOOL_NAMES[candidate.source]}
            {candidate.cliVersion !== null && <span className="muted"> {candidate.cliVersion}</span>}
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd title={formatDateTime(candidate.updatedAt)}>
            <RelativeTime iso={candidate.updatedAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>Messages</dt>
          <dd data-testid="candidate-messages" title={candidate.messageCountExact ? undefined : 'Estimated from samples of a large log'}>
            {count}
          </dd>
        </div>
        {candidate.model !== null && (
          <div>
            <dt>Model</dt>
            <dd>{candidate.model}</dd>
          </div>
        )}
        <div className="candidate-meta-wide">
          <dt>Log</dt>
          <dd>
            <code className="muted">{candidate.path}</code>
          </dd>
        </div>
      </dl>
      {candidate.note !== undefined && candidate.note.length > 0 && (
        <p className="notice notice-warn" data-testid="candidate-note">
          {candidate.note}
        </p>
      )}

      <div className="candidate-actions">
        <button type="button" className="button" data-testid="candidate-open" onClick={open} disabled={importing.status === 'busy'}>
          {importing.status === 'busy' ? 'Opening…' : 'Open in Baton'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          data-testid="candidate-terminal"
          onClick={continueInTerminal}
          disabled={command.status === 'busy' || candidate.cwd === null}
          title={candidate.cwd === null ? 'The log does not say which directory it ran in' : undefined}
        >
          Continue in terminal
        </button>
      </div>
      <p className="muted candidate-help">
        Open in Baton copies the conversation into Baton (the {TOOL_NAMES[candidate.source]} log is only read, never changed).
      </p>

      {importing.status === 'failed' && (
        <p className="inline-error" role="alert" data-testid="candidate-open-error">
          Could not open it in Baton: {importing.error.message} <code>{importing.error.code}</code>
        </p>
      )}
      {command.status === 'failed' && (
        <p className="inline-error" role="alert" data-testid="candidate-terminal-error">
          Could not build the command: {command.error.message} <code>{command.error.code}</code>
        </p>
      )}
      {command.status === 'done' && <TerminalCommandView command={command.value} />}
      <CandidatePreview candidate={candidate} now={now} />
    </article>
  );
}

function TerminalCommandView({ command }: { command: TerminalCommand }) {
  return (
    <section className="terminal-command" data-testid="terminal-command" aria-label="Continue in terminal">
      <h2 className="section-title">Run this in a terminal</h2>
      {!command.cwdExists && (
        <p className="notice notice-warn" data-testid="terminal-cwd-warning">
          The directory <code>{command.cwd}</code> no longer exists.
          {command.movedTo !== null ? (
            <>
              {' '}
              It looks like it moved to <code>{command.movedTo}</code>; the command runs there.
            </>
          ) : (
            ' Run the command from wherever the project is now.'
          )}
        </p>
      )}
      <CopyableCode text={command.shellLine} />
    </section>
  );
}
