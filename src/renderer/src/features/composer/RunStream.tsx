import type { RunView } from '../../../../shared/agent-run';
import { foldRunEvents } from './run-items';

const STATE_LABEL: Record<RunView['state'], string> = { running: 'Running', stopping: 'Stopping…', completed: 'Finished', failed: 'Failed', stopped: 'Stopped' };

/** The run as it streams: the follow-up, then text, tool cards that update while a call runs, errors and the end. */
export function RunStream({ run }: { run: RunView }) {
  const items = foldRunEvents(run.events);
  return (
    <section className="run-stream" aria-label="Desktop run" aria-live="polite" data-testid="run-stream" data-state={run.state}>
      <header className="run-stream-header">
        <span className={`run-state run-state-${run.state}`} data-testid="run-state">
          {STATE_LABEL[run.state]}
        </span>
        <span className="muted">
          {run.tool === 'claude' ? 'Claude Code' : 'Codex'} · model {run.model ?? 'the tool’s default'}
        </span>
      </header>
      <p className="run-prompt" data-testid="run-prompt">
        {run.prompt}
      </p>
      {items.map((item) => {
        if (item.kind === 'text')
          return (
            <p key={item.id} className="run-text" data-testid="run-text">
              {item.text}
            </p>
          );
        if (item.kind === 'tool')
          return (
            <div key={item.id} className={`run-tool run-tool-${item.status}`} data-testid="run-tool" data-status={item.status}>
              <div className="run-tool-head">
                <strong>{item.name}</strong> <code>{item.summary}</code>
                <span className="run-tool-status">{item.status === 'running' ? 'running…' : item.status === 'done' ? 'done' : 'failed'}</span>
              </div>
              {item.output !== null && item.output !== '' && (
                <pre className="run-tool-output" data-testid="run-tool-output">
                  {item.output}
                </pre>
              )}
            </div>
          );
        if (item.kind === 'files')
          return (
            <div key={item.id} className="run-files" data-testid="run-files">
              <span className="muted">Files changed in this run (see Changes):</span>{' '}
              {item.paths.map((path) => (
                <code key={path} className="run-file" data-testid="run-file">
                  {path}
                </code>
              ))}
              {item.more > 0 && <span className="muted"> and {item.more} more</span>}
            </div>
          );
        if (item.kind === 'error')
          return (
            <p key={item.id} className="inline-error" role="alert" data-testid="run-error">
              {item.message}
            </p>
          );
        return (
          <div key={item.id} className={`run-finished run-finished-${item.state}`} data-testid="run-finished">
            {item.state === 'completed' && 'The agent finished this turn.'}
            {item.state === 'stopped' && 'Stopped: the agent process was interrupted.'}
            {item.state === 'failed' && `The agent failed (exit code ${item.exitCode ?? item.signal ?? 'unknown'}).`}
            {item.state === 'failed' && item.stderrTail.length > 0 && <pre className="run-tool-output" data-testid="run-stderr">{item.stderrTail.join('\n')}</pre>}
          </div>
        );
      })}
    </section>
  );
}
