import type { RiskReason } from '../../../../shared/approvals';

/**
 * A request's risk reasons. Keys are position + rule: two reasons may share a rule (two paths
 * outside the workspace), and a key of the rule alone let React reuse a stale row, so the detail
 * showed another request's reasons.
 */
export function RiskReasons({ reasons, testId }: { reasons: readonly RiskReason[]; testId?: string }) {
  return (
    <ul className="risk-reasons" data-testid={testId}>
      {reasons.map((item, index) => (
        <li key={`${index}:${item.rule}`} className={`risk-reason risk-${item.level}`} data-testid="risk-reason" data-rule={item.rule}>
          <span className={`badge badge-risk-${item.level}`}>{item.level}</span> {item.message}
        </li>
      ))}
    </ul>
  );
}
