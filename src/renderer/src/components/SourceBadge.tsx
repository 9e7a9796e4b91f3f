import type { SourceTool } from '../../../shared/session';

const LABELS: Record<SourceTool, string> = { baton: 'baton', claude: 'claude', codex: 'codex', other: 'other' };

/** Which terminal assistant the session came from. */
export function SourceBadge({ source }: { source: SourceTool }) {
  return (
    <span className={`badge badge-source badge-${source}`} title={`Source: ${LABELS[source]}`}>
      {LABELS[source]}
    </span>
  );
}
