import type { ReactNode } from 'react';
import type { DriftedFile, RehydrationPlan, VerificationReason } from '../../../../shared/workspace';
import { shortHash } from './format';
import type { WorkspaceStatus } from './use-workspace';

export interface StatusBannerProps {
  status: WorkspaceStatus;
  /** Per drifted file: the action the plan allows, rendered by the parent (it owns the dialog). */
  renderFileAction: (file: DriftedFile) => ReactNode;
  /** The worktree action, when the plan offers one. */
  renderWorktreeAction: (plan: Extract<RehydrationPlan, { kind: 'worktree' }>) => ReactNode;
}

const HEADLINE = {
  complete: 'Your working tree matches the handoff',
  partial: 'Your working tree differs from the handoff',
  none: 'The handed-off workspace is not here',
} as const;

/** complete (green), partial (amber, each drifted file with expected vs actual) or none (why), and what can be done. */
export function StatusBanner({ status, renderFileAction, renderWorktreeAction }: StatusBannerProps) {
  const { verification, plan } = status;
  if (verification === null) return null;
  const kind = verification.status;
  const reasons = verification.reasons.filter((reason) => reason.code !== 'match' && reason.code !== 'file-drift');
  return (
    <section className={`ws-banner ws-banner-${kind}`} data-testid="workspace-status" data-status={kind} aria-labelledby="ws-banner-title" role="status">
      <div className="ws-banner-head">
        <span className="ws-banner-icon" aria-hidden="true">
          {kind === 'complete' ? '✓' : kind === 'partial' ? '!' : '×'}
        </span>
        <div>
          <h2 className="ws-banner-title" id="ws-banner-title">
            {kind === 'partial' && verification.drifted.length > 0
              ? `${HEADLINE.partial} in ${verification.drifted.length} ${verification.drifted.length === 1 ? 'file' : 'files'}`
              : HEADLINE[kind]}
          </h2>
          {verification.targetRoot !== null && (
            <p className="ws-banner-sub">
              <code>{verification.targetRoot}</code>
            </p>
          )}
        </div>
      </div>
      {reasons.length > 0 && <Reasons reasons={reasons} />}
      {kind === 'none' && <p className="ws-banner-text">{noneAdvice(verification.reasons)}</p>}
      {verification.drifted.length > 0 && (
        <ul className="drift-list" aria-label="Files that differ">
          {verification.drifted.map((file) => (
            <li key={file.path} className="drift-row" data-testid="drifted-file" data-path={file.path}>
              <code className="drift-path">{file.path}</code>
              <span className="drift-hashes">{describeDrift(file)}</span>
              {renderFileAction(file)}
            </li>
          ))}
        </ul>
      )}
      {plan?.kind === 'worktree' && renderWorktreeAction(plan)}
      {plan?.kind === 'nothing' && kind !== 'complete' && <p className="ws-banner-text muted">{plan.reason}</p>}
    </section>
  );
}

function Reasons({ reasons }: { reasons: VerificationReason[] }) {
  return (
    <ul className="ws-reasons">
      {reasons.map((reason) => (
        <li key={`${reason.code}:${reason.message}`} data-code={reason.code}>
          {reason.message}
        </li>
      ))}
    </ul>
  );
}

/** "expected 1a2b… · on disk 9f8e…", or what is missing on which side. */
export function describeDrift(file: DriftedFile): string {
  if (file.expectedMode !== undefined && file.expectedSha256 === file.actualSha256) {
    return `mode: expected ${file.expectedMode} · on disk ${file.actualMode ?? 'missing'}`;
  }
  const expected = file.expectedSha256 === null ? 'expected no file' : `expected ${shortHash(file.expectedSha256)}`;
  const actual = file.actualSha256 === null ? 'missing on disk' : `on disk ${shortHash(file.actualSha256)}`;
  return `${expected} · ${actual}`;
}

function noneAdvice(reasons: VerificationReason[]): string {
  const codes = new Set(reasons.map((reason) => reason.code));
  if (codes.has('root-missing')) return 'The repository root of the handoff does not exist on this machine. Clone the repository there (or move it back), then open the session again; or open the session on the machine that has it.';
  if (codes.has('another-repository') || codes.has('not-a-repository'))
    return 'The directory holds another repository (or none). Your files are left as they are; clone the handed-off repository to look at its state.';
  return 'Baton cannot match the handed-off workspace to this disk. Your files are left as they are.';
}
