import type { ApprovalView } from './use-approvals';

/** A pending approval view for tests: a low-risk `npm test` unless overridden. */
export function approvalView(requestId: string, overrides: Partial<ApprovalView['request']> = {}): ApprovalView {
  return {
    request: {
      type: 'request',
      schemaVersion: 1,
      requestId,
      sessionId: 's1',
      tool: 'Bash',
      input: { command: 'npm test' },
      cwd: '/home/dev/api',
      workspaceRoot: '/home/dev/api',
      client: 'claude',
      risk: { level: 'low', reasons: [] },
      createdAt: new Date(Date.now() - 5_000).toISOString(),
      expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
      ...overrides,
    },
    decision: null,
  };
}
