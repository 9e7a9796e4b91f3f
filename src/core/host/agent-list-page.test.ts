import { describe, expect, it } from 'vitest';
import { candidateWithNote } from '../importers/candidate.js';
import { entryOf, type IndexEntry } from '../importers/candidate-index.js';
import { importedSessionId } from '../handoff/import-agent-session.js';
import { agentListPage, orderAgentEntries } from './agent-list-page.js';

/** Entries whose candidate() calls are counted: a page must build only its own rows. */
function entries(n: number, mtimeOf: (i: number) => number): { list: IndexEntry[]; built: () => number } {
  let built = 0;
  const list = Array.from({ length: n }, (_, i) => {
    const path = `/home/dev/.claude/projects/-w/${String(i).padStart(8, '0')}-0000-4000-8000-000000000000.jsonl`;
    const stat = { size: 100 + i, mtimeMs: mtimeOf(i) };
    const e = entryOf(path, 'claude', stat.size, stat.mtimeMs, candidateWithNote('claude', path, stat, 'n'), null, [0, 0, 0, 0]);
    const candidate = e.candidate.bind(e);
    // A view of the entry that counts candidate() (an entry is a class: a spread copy would lose its methods).
    return Object.assign(Object.create(e) as IndexEntry, { candidate: () => (built++, candidate()) });
  });
  return { list, built: () => built };
}

describe('agents:list order and pages (host)', () => {
  it('orders newest first, keeps ties in resident order, and leaves out candidates imported at their state', () => {
    const { list } = entries(50, (i) => Date.UTC(2026, 10, 1) + (i % 10) * 60_000);
    const imported = new Set([importedSessionId(list[7]!.candidate().fingerprint), importedSessionId(list[19]!.candidate().fingerprint)]);
    const sorted = orderAgentEntries(list, imported);
    expect(sorted).toHaveLength(48);
    expect(sorted.includes(list[7]!)).toBe(false);
    expect(sorted.includes(list[19]!)).toBe(false);
    for (let k = 1; k < sorted.length; k++) {
      expect(sorted[k - 1]!.at).toBeGreaterThanOrEqual(sorted[k]!.at);
      if (sorted[k - 1]!.at === sorted[k]!.at) expect(list.indexOf(sorted[k - 1]!)).toBeLessThan(list.indexOf(sorted[k]!));
    }
    // The same order as sorting the candidates by updatedAt (what the host did before).
    const byTime = list.filter((e) => e !== list[7] && e !== list[19]).map((e) => e.candidate());
    byTime.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
    expect(sorted.map((e) => e.candidate().path)).toEqual(byTime.map((c) => c.path));
  });

  it('builds only the rows of the page asked for, and counts all of them', () => {
    const { list, built } = entries(10_000, (i) => Date.UTC(2026, 10, 1) + i * 1000);
    const order = { key: 'k', version: 'v', sorted: orderAgentEntries(list, new Set()), stats: { files: 10_000, ms: 1 } };
    expect(built()).toBe(0); // nothing imported: no candidate built to check
    const page = agentListPage(order, 200, 50);
    expect(built()).toBe(50);
    expect(page.total).toBe(10_000);
    expect(page.version).toBe('v');
    expect(page.candidates.map((c) => c.path)).toEqual(order.sorted.slice(200, 250).map((e) => e.path));
    expect(page.candidates[0]!.updatedAt > page.candidates[49]!.updatedAt).toBe(true);
    expect(agentListPage(order, undefined, undefined).candidates).toHaveLength(10_000);
  });
});
