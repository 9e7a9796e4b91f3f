import type { ApprovalView } from './use-approvals';

/** A pending approval view for tests: a low-risk `npm test`, grantable as exactly that, unless overridden. */
export function approvalView(requestId: string, overrides: Partial<ApprovalView['request']> = {}, view: Partial<Omit<ApprovalView, 'request'>> = {}): ApprovalView {
  const command = typeof overrides.input?.command === 'string' ? overrides.input.command : 'npm test';
  return {
    grant: { ok: true, rule: `Bash(${command})`, summary: `exactly this command: ${command}` },
    ...view,
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
    ...('decision' in view ? { decision: view.decision ?? null } : {}),
  };
}
