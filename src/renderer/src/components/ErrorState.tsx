import type { ApiError } from '../api';

/** What failed, why (with the code to search for), and a Retry button. */
export function ErrorState({ what, error, onRetry }: { what: string; error: ApiError; onRetry: () => void }) {
  return (
    <div className="state state-error" data-testid="error-state" role="alert">
      <h2 className="state-title">{what}</h2>
      <p className="error-message">{error.message}</p>
      <p className="muted">
        Error code: <code>{error.code}</code>
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
