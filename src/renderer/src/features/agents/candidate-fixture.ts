import type { AgentCandidate } from '../../../../shared/agents';

/** A valid agent candidate for tests; override what the test is about. */
export function agentCandidate(overrides: Partial<AgentCandidate> = {}): AgentCandidate {
  const source = overrides.source ?? 'claude';
  const externalId = overrides.externalId ?? '11111111-2222-4333-8444-555555555555';
  return {
    source,
    externalId,
    path: `/home/dev/.claude/projects/-home-dev-api/${externalId}.jsonl`,
    title: 'Fix the failing test in parser.ts',
    cwd: '/home/dev/api',
    branch: 'main',
    updatedAt: '2026-11-29T10:00:00.000Z',
    messageCount: 12,
    messageCountExact: true,
    model: 'claude-opus-4-6',
    cliVersion: '2.1.39',
    fingerprint: 'f'.repeat(64),
    resumeCommand: source === 'claude' ? `claude --resume ${externalId}` : `codex resume ${externalId}`,
    ...overrides,
  };
}
