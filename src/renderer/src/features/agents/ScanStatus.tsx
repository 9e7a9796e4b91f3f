import type { AgentScanState } from './use-agent-scan';
import { formatCount } from '../../model/format-number';

const TOOL_NAMES = { claude: 'Claude Code', codex: 'Codex' } as const;

/** "Reading Claude Code sessions… 4,210 / 10,000" while a cold scan reads files, else the plain line. */
export function scanningText(scan: Pick<AgentScanState, 'progress'>): string {
  const p = scan.progress;
  if (!p) return 'Scanning Claude Code and Codex sessions…';
  return `Reading ${TOOL_NAMES[p.source]} sessions… ${formatCount(p.done)} / ${formatCount(p.total)}`;
}

/** A quiet line under the search: scanning, how many were found, or why the scan failed (with Retry). */
export function ScanStatus({ scan }: { scan: AgentScanState }) {
  if (scan.scanning) {
    return (
      <div className="scan-status muted" role="status" data-testid="scan-status" data-state="scanning">
        <span className="spinner spinner-small" aria-hidden="true" />
        {scanningText(scan)}
      </div>
    );
  }
  if (scan.error !== undefined) {
    // UNKNOWN_METHOD: an older host without the scan; nothing to retry, say nothing.
    if (scan.error.code === 'UNKNOWN_METHOD') return null;
    return (
      <div className="scan-status scan-status-error" role="status" data-testid="scan-status" data-state="error" title={`${scan.error.code}: ${scan.error.message}`}>
        <span>Could not scan Claude Code and Codex sessions.</span>
        <button type="button" className="button-link" onClick={scan.rescan}>
          Retry
        </button>
      </div>
    );
  }
  return null;
}
