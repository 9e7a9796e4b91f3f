/** Grey placeholder rows while the first answer is on its way (announced once to screen readers). */
export function Skeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <div className="skeleton" role="status" aria-live="polite" data-testid="loading">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton-row" aria-hidden="true">
          <div className="skeleton-line skeleton-line-wide" />
          <div className="skeleton-line" />
        </div>
      ))}
    </div>
  );
}
