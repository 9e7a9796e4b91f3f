import { describe, expect, it } from 'vitest';
import type { AgentCandidate } from '../../../shared/agents';
import { row } from '../test-support/fixtures';
import { agentCandidate } from '../features/agents/candidate-fixture';
import { isCandidateId, mergeRows } from './merge-candidates';

describe('mergeRows', () => {
  it('index rows first, then candidates as rows with prefixed ids and their source', () => {
    const claude = agentCandidate({ source: 'claude', externalId: 'c-1', title: 'Refactor parser', cwd: '/p/api', branch: 'dev' });
    const codex = agentCandidate({ source: 'codex', externalId: 'x-1', title: '', cwd: null });
    const merged = mergeRows([row({ id: 'b1' })], [claude, codex]);
    expect(merged.rows.map((r) => [r.id, r.source])).toEqual([
      ['b1', 'baton'],
      ['claude:c-1', 'claude'],
      ['codex:x-1', 'codex'],
    ]);
    expect(merged.rows[1]).toMatchObject({ title: 'Refactor parser', cwd: '/p/api', branch: 'dev' });
    // No title: the row says which tool and id; no cwd: grouped under a named placeholder.
    expect(merged.rows[2]!.title).toBe('codex session x-1');
    expect(merged.rows[2]!.cwd).toBe('(unknown directory)');
    expect(merged.candidates.get('claude:c-1')).toBe(claude);
  });

  it('the same candidate twice shows once', () => {
    const one: AgentCandidate = agentCandidate({ externalId: 'same' });
    expect(mergeRows([], [one, { ...one, title: 'again' }]).rows).toHaveLength(1);
  });

  it('a candidate opened in Baton is left out at once: the imported session is its only row', () => {
    const claude = agentCandidate({ source: 'claude', externalId: 'c-1' });
    const merged = mergeRows([row({ id: 'imp-1' })], [claude, agentCandidate({ source: 'codex', externalId: 'x-1' })], new Set(['claude:c-1']));
    expect(merged.rows.map((r) => r.id)).toEqual(['imp-1', 'codex:x-1']);
    expect(merged.candidates.has('claude:c-1')).toBe(false);
  });

  it('isCandidateId', () => {
    expect(isCandidateId('claude:abc')).toBe(true);
    expect(isCandidateId('codex:abc')).toBe(true);
    expect(isCandidateId('s-1')).toBe(false);
    expect(isCandidateId(null)).toBe(false);
  });
});
