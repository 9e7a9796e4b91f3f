import { fireEvent, render, screen } from '@testing-library/react';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../../api';
import { App } from '../../../components/App';
import { MemoryBridge, okResult } from '../../../test-support/memory-bridge';
import type { AgentCandidate } from '../../../../../shared/agents';
import type { Grant } from '../../../../../shared/approvals';
import type { IndexRow } from '../../../../../shared/session';
import type { ApprovalView } from '../use-approvals';

export interface ApprovalsHostOptions {
  rows?: IndexRow[];
  candidates?: AgentCandidate[];
  grants?: Grant[];
}

/**
 * The whole App over an in-memory bridge with a mutable pending queue: a decision removes the
 * request, as the real service does. `apis` collects what to close after the test.
 */
export function renderApprovalsHost(pending: ApprovalView[], apis: BatonApi[], options: ApprovalsHostOptions = {}): MemoryBridge {
  const grants = options.grants ?? [];
  const bridge = new MemoryBridge()
    .handle('sessions:list', () => okResult(options.rows ?? []))
    .handle('agents:list', () => okResult({ candidates: options.candidates ?? [], stats: { files: 0, ms: 0 } }))
    .handle('tasks:list', () => okResult([]))
    .handle('grants:list', () => okResult(grants))
    .handle('grants:revoke', (payload) => {
      const { grantId } = payload as { grantId: string };
      grants.splice(grants.findIndex((g) => g.id === grantId), 1);
      return okResult({ revoked: true });
    })
    .handle('approvals:pending', () => okResult(pending))
    .handle('approvals:decide', (payload) => {
      const { requestId } = payload as { requestId: string };
      const index = pending.findIndex((view) => view.request.requestId === requestId);
      const [view] = pending.splice(index, 1);
      return okResult({ ...view!, decision: null });
    });
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  render(<App api={api} />);
  return bridge;
}

export async function openApprovals(): Promise<HTMLElement> {
  fireEvent.click(screen.getByTestId('open-approvals'));
  return screen.findByTestId('approvals-panel');
}

export const decidesOf = (bridge: MemoryBridge) => bridge.calls.filter((c) => c.channel === 'approvals:decide').map((c) => c.payload);

/** A Claude Code session found on disk, as the scan lists it. */
export function claudeCandidate(externalId: string, title: string): AgentCandidate {
  return {
    source: 'claude',
    externalId,
    path: `/home/dev/.claude/projects/-home-dev-api/${externalId}.jsonl`,
    title,
    cwd: '/home/dev/api',
    branch: 'main',
    updatedAt: '2026-11-30T10:00:00.000Z',
    messageCount: 12,
    messageCountExact: true,
    model: null,
    cliVersion: null,
    fingerprint: `fp-${externalId}`,
    resumeCommand: `claude --resume ${externalId}`,
  };
}
