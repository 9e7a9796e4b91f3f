import { Skeleton } from '../../components/Skeleton';

/** A candidate link (`#session=claude:<id>`) before the scan has answered, or after it no longer lists it. */
export function CandidateMissing({ id, scanning }: { id: string; scanning: boolean }) {
  if (scanning) return <Skeleton rows={3} label="Scanning Claude Code and Codex sessions…" />;
  return (
    <div className="state state-not-found" data-testid="candidate-not-found" role="alert">
      <h2 className="state-title">Session not found</h2>
      <p>
        No Claude Code or Codex session <code>{id}</code> was found on this machine. Its log may have been deleted or moved.
      </p>
    </div>
  );
}
