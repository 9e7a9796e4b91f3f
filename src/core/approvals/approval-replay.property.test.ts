import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../transport/types.js';
import { removeDir, tempDataDir, until } from '../tasks/test-support/endpoint.js';
import { createApprovalService, type ApprovalService } from './approval-service.js';
import { fromGeneric } from './claude-hook.js';

/**
 * Property (issue #10): whatever the order of requests, decisions and restarts, a caller hears
 * only the decision of the request it names, a request without an id of its own is always asked
 * anew, and a high-risk approval is heard once. The service runs for real over a temp data dir;
 * only the socket is left out (its handler is called with a connection that never closes).
 */
const SESSION = 'sess-prop';
const COMMANDS = ['npm test', 'git push --force origin main', 'npm run lint'] as const;
const HIGH = new Set<string>(['git push --force origin main']);
const IDS = ['toolu_a', 'toolu_b', 'toolu_c', null] as const;

interface Step {
  id: (typeof IDS)[number];
  command: (typeof COMMANDS)[number];
  decision: 'approve' | 'deny';
  restartFirst: boolean;
}
const step: fc.Arbitrary<Step> = fc.record({
  id: fc.constantFrom(...IDS),
  command: fc.constantFrom(...COMMANDS),
  decision: fc.constantFrom('approve' as const, 'deny' as const),
  restartFirst: fc.boolean(),
});

const open = { signal: new AbortController().signal };

async function ask(service: ApprovalService, s: Step): Promise<{ requestId: string; answer: Answer }> {
  const params = fromGeneric({ tool: 'Bash', input: { command: s.command }, cwd: '/work/proj', sessionId: SESSION, ...(s.id ? { requestId: s.id } : {}) });
  const answered = service.methods['approval.request']!({ id: '1', method: 'approval.request', params }, open);
  let settled = false;
  void answered.then(() => (settled = true));
  await until(() => settled || service.listPending().some((v) => v.request.requestId === params.requestId), `request ${params.requestId}`);
  if (!settled) await service.decide(params.requestId, { decision: s.decision, ...(HIGH.has(s.command) && s.decision === 'approve' ? { confirmHighRisk: true } : {}) });
  return { requestId: params.requestId, answer: await answered };
}

describe('replay property', () => {
  it('replay property: only the named request answers, an id-less call is asked anew, a high-risk yes is heard once (with restarts)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const dataDir = await tempDataDir('baton-replay-prop-');
        let service = createApprovalService({ dataDir, home: '/home/u' });
        const model = new Map<string, { command: string; decision: 'approve' | 'deny' }>();
        try {
          for (const s of steps) {
            if (s.restartFirst) {
              await service.close();
              service = createApprovalService({ dataDir, home: '/home/u' });
            }
            const { requestId, answer } = await ask(service, s);
            const known = s.id === null ? undefined : model.get(s.id);
            if (known === undefined) {
              // A new request: it is asked, and the answer is this request's own decision.
              expect(answer).toMatchObject({ ok: true, requestId, decision: s.decision, by: 'user', replay: false });
              model.set(requestId, { command: s.command, decision: s.decision });
            } else if (known.command !== s.command) {
              expect(answer).toMatchObject({ ok: false, code: 'CONFLICT' });
            } else if (known.decision === 'approve' && HIGH.has(known.command)) {
              expect(answer).toMatchObject({ ok: false, code: 'NOT_REUSABLE' });
            } else {
              expect(answer).toMatchObject({ ok: true, requestId, decision: known.decision, replay: true });
            }
          }
        } finally {
          await service.close();
          await removeDir(dataDir);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
