import { CopyableCode } from './CopyableCode';

export const HANDOFF_COMMAND = 'baton handoff --cwd . --title "…" --messages session.jsonl';

/** Shown when the store has no sessions: says exactly how to get the first one here. */
export function EmptyState() {
  return (
    <div className="state state-empty" data-testid="empty-state">
      <h2 className="state-title">No sessions yet.</h2>
      <p>From a terminal, run:</p>
      <CopyableCode text={HANDOFF_COMMAND} />
      <p className="muted">
        <code>session.jsonl</code> holds one message a line, for example <code>{'{"role":"user","content":"Fix the flaky test"}'}</code>. The session
        appears here as soon as the handoff lands.
      </p>
    </div>
  );
}
