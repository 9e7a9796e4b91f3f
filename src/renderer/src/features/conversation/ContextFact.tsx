import type { SessionDoc } from '../../../../shared/session';

/**
 * What the latest handoff carried about the conversation (docs/context-transfer.md): the token
 * estimate with its method, the anchors and the summary artifact. Absent before a handoff.
 */
export function ContextFact({ context }: { context: SessionDoc['context'] }) {
  if (context?.tokenEstimate === undefined || context.tokenEstimate === null) return null;
  const anchors = context.anchorMessageIds?.length ?? 0;
  return (
    <div data-testid="context-fact">
      <dt>Context</dt>
      <dd title={context.tokenEstimateMethod ? `Estimated by ${context.tokenEstimateMethod} (docs/context-transfer.md)` : undefined}>
        ≈ {formatTokens(context.tokenEstimate)} tokens <span className="muted">· {anchors} {anchors === 1 ? 'anchor' : 'anchors'}</span>
        {context.compactedSummaryRef && (
          <>
            {' '}
            <span className="muted">·</span> <code>{context.compactedSummaryRef.replace(/^artifacts\//, '')}</code>
          </>
        )}
      </dd>
    </div>
  );
}

/** "950", "12.4 k", "8.3 M". */
export function formatTokens(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${(n / 1_000).toFixed(1)} k`;
  return `${(n / 1_000_000).toFixed(1)} M`;
}
