/**
 * What a split view shows while its chunk loads (see lazy-views.tsx): one quiet line, not the
 * session skeleton (tests and screen readers read `loading` as "the host has not answered").
 */
export function ViewFallback() {
  return (
    <div className="state state-placeholder" role="status" aria-live="polite" data-testid="view-loading">
      <span className="visually-hidden">Opening…</span>
    </div>
  );
}
