import type { ApprovalView } from '../../../../shared/approvals';

/** The longest tool input shown on one line before it is cut. */
export const INPUT_SUMMARY_MAX = 160;

/** What the agent wanted to do, in one line: the command, else the file, else the input as JSON. */
export function summarizeInput(input: Record<string, unknown>): string {
  const preferred = ['command', 'cmd', 'file_path', 'path', 'url', 'pattern'];
  for (const key of preferred) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0) return cut(value);
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return cut(value.join(' '));
  }
  return cut(JSON.stringify(input));
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > INPUT_SUMMARY_MAX ? `${line.slice(0, INPUT_SUMMARY_MAX - 1)}…` : line;
}

const BY_LABEL: Record<string, string> = {
  user: 'by you',
  timeout: 'timed out',
  disconnect: 'agent disconnected',
  'host-restart': 'Baton restarted',
  grant: 'by a session grant',
};

/** "Approved by you", "Denied · timed out", "Waiting for a decision". */
export function decisionLabel(view: ApprovalView): string {
  if (view.decision === null) return 'Waiting for a decision';
  const verb = view.decision.decision === 'approve' ? 'Approved' : 'Denied';
  const by = BY_LABEL[view.decision.by] ?? `by ${view.decision.by}`;
  return view.decision.by === 'user' || view.decision.by === 'grant' ? `${verb} ${by}` : `${verb} · ${by}`;
}

/** Newest first: decided ones by decision time, pending ones by when they were asked. */
export function sortNewestFirst(views: readonly ApprovalView[]): ApprovalView[] {
  const at = (view: ApprovalView): number => Date.parse(view.decision?.decidedAt ?? view.request.createdAt);
  return [...views].sort((a, b) => at(b) - at(a));
}
