import { writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageInput, MessageRecord } from '../../shared/message.js';
import { sha256Hex } from '../hash.js';
import { landAndReadBack } from '../handoff/send.js';
import { createHandoffFixture, type HandoffFixture } from '../handoff/test-support/handoff-fixture.js';
import { anchorMessageIds, LAST_TURNS } from './anchors.js';
import { contextWithoutSummary, prepareContext } from './context-transfer.js';
import { emptyState, extend } from './extract.js';
import { parseSummaryState } from './summary.js';
import { importAgentSession } from '../handoff/import-agent-session.js';
import { claude, CLAUDE_SESSION_ID, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';

const CONVERSATION: MessageInput[] = [
  { role: 'user', content: 'Refactor the auth module and fill in the tests.', id: 'goal' },
  { role: 'assistant', content: 'Looking at src/auth first.', id: 'a1' },
  { role: 'user', content: 'You must not change the public API of login().', id: 'rule' },
  { role: 'assistant', content: "Two options exist. We'll go with the token bucket instead of a fixed window.", id: 'plan' },
  { role: 'tool', content: 'ok', id: 't1', toolCallId: 'x' },
  { role: 'assistant', content: 'Should I also migrate the session table?', id: 'q-answered' },
  { role: 'user', content: 'Yes, migrate it.', id: 'answer' },
  ...Array.from({ length: 20 }, (_, i): MessageInput => ({ role: i % 2 ? 'assistant' : 'user', content: `step ${i}`, id: `m${i}` })),
  { role: 'assistant', content: 'Done with the migration. Do you want the old table dropped now?', id: 'q-open' },
];

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

// The landing keeps no records (issue 20): the tests read them back from the store.
const land = async (messages: MessageInput[]) => {
  const landed = await landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 't', messages });
  return { ...landed, records: await fixture.store.readMessages(landed.session.id) };
};

describe('anchors', () => {
  it('carry the first goal, decisions, constraints, open questions and the last turns, in log order', async () => {
    const { records } = await land(CONVERSATION);
    const state = extend(emptyState(), records);
    const ids = anchorMessageIds(state, records);
    expect(ids.slice(0, 3)).toEqual(['goal', 'rule', 'plan']);
    expect(state.decisions.map((d) => [d.id, d.kind])).toEqual([
      ['rule', 'constraint'],
      ['plan', 'decision'],
    ]);
    expect(state.questions.map((q) => q.id)).toEqual(['q-open']);
    expect(ids).not.toContain('q-answered');
    expect(ids).not.toContain('t1');
    const lastTurns = records.filter((r) => r.role !== 'tool').slice(-LAST_TURNS).map((r) => r.id);
    expect(ids.slice(-LAST_TURNS)).toEqual(lastTurns);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep the earliest and the latest decisions when there are very many', () => {
    const records = Array.from({ length: 500 }, (_, i) => ({ role: 'user', content: `We must keep rule ${i}.`, id: `r${i}`, seq: i, crc: '', createdAt: '' })) as MessageRecord[];
    const state = extend(emptyState(), records);
    expect(state.decisions[0]!.id).toBe('r0');
    expect(state.decisions.at(-1)!.id).toBe('r499');
    expect(state.decisions.length).toBe(40);
  });
});

describe('progressive summary', () => {
  it('writes artifacts/summary-01.md, records it in session.json, and the manifest fields point at it by hash', async () => {
    const { session, records } = await land(CONVERSATION);
    const context = await prepareContext(fixture.store, session, records);
    expect(context.compacted_summary_ref).toBe('artifacts/summary-01.md');
    const bytes = await fixture.store.readArtifact(session.id, context.compacted_summary_ref!, context.compacted_summary_sha256!);
    expect(sha256Hex(bytes)).toBe(context.compacted_summary_sha256);
    const markdown = Buffer.from(bytes).toString('utf8');
    expect(markdown).toContain('Refactor the auth module');
    expect(markdown).toContain('You must not change the public API of login(). _(constraint)_');
    expect(markdown).toContain('Do you want the old table dropped now?');
    const doc = await fixture.store.getSession(session.id);
    expect(doc.context).toMatchObject({ compactedSummaryRef: 'artifacts/summary-01.md', summaryNumber: 1, summaryThroughSeq: records.length - 1, tokenEstimate: context.token_estimate });
    expect(context.token_estimate_method).toBe('baton-runs-v1/claude');
  });

  it('a later handoff extends the previous summary from where it stopped, instead of reading the whole log again', async () => {
    const { session, records } = await land(CONVERSATION);
    const first = await prepareContext(fixture.store, session, records);
    const [more] = [await fixture.store.append(session.id, 1, [{ role: 'user', content: 'Now we should never touch the billing code.', id: 'late-rule' }])];
    // Earlier records altered in memory: a summary that re-read them would show the change.
    const all = [...records.map((r) => (r.id === 'goal' ? { ...r, content: 'SOMETHING ELSE' } : r)), ...more!];
    const second = await prepareContext(fixture.store, await fixture.store.getSession(session.id), all);
    expect(second.compacted_summary_ref).toBe('artifacts/summary-02.md');
    const markdown = Buffer.from(await fixture.store.readArtifact(session.id, second.compacted_summary_ref!, second.compacted_summary_sha256!)).toString('utf8');
    expect(markdown).toContain(`Extends \`artifacts/summary-01.md\` (sha256 ${first.compacted_summary_sha256})`);
    expect(markdown).toContain('Refactor the auth module');
    expect(markdown).not.toContain('SOMETHING ELSE');
    expect(markdown).toContain('Now we should never touch the billing code.');
    const state = parseSummaryState(markdown);
    expect(state.ok && state.state.messages).toBe(all.length);
    expect(second.anchor_message_ids).toContain('late-rule');
  });

  it('a summary number already taken by other content (a crash between the artifact and session.json) moves to the next number', async () => {
    // The landing wrote summary-01 with the session; a later handoff wrote summary-02 and crashed.
    const { session, records } = await land(CONVERSATION);
    const more = await fixture.store.append(session.id, 1, [{ role: 'user', content: 'next' }]);
    await fixture.store.putNamedArtifact(session.id, 'summary-02.md', Buffer.from('# left by a crashed handoff\n'));
    const context = await prepareContext(fixture.store, await fixture.store.getSession(session.id), [...records, ...more]);
    expect(context.compacted_summary_ref).toBe('artifacts/summary-03.md');
    expect((await fixture.store.getSession(session.id)).context?.summaryNumber).toBe(3);
  });

  it('with no new message the same summary is handed again, and nothing is written', async () => {
    const { session, records } = await land(CONVERSATION);
    const first = await prepareContext(fixture.store, session, records);
    const again = await prepareContext(fixture.store, await fixture.store.getSession(session.id), records);
    expect(again).toEqual(first);
    expect((await fixture.store.getSession(session.id)).context?.summaryNumber).toBe(1);
  });

  it('a summary changed on disk is not trusted: the next one is rebuilt from the whole log and says why', async () => {
    const { session, records } = await land(CONVERSATION);
    await prepareContext(fixture.store, session, records);
    const path = join(fixture.store.sessionDir(session.id), 'artifacts', 'summary-01.md');
    await chmod(path, 0o600);
    await writeFile(path, 'tampered');
    const more = await fixture.store.append(session.id, 1, [{ role: 'user', content: 'next' }]);
    const next = await prepareContext(fixture.store, await fixture.store.getSession(session.id), [...records, ...more]);
    const markdown = Buffer.from(await fixture.store.readArtifact(session.id, next.compacted_summary_ref!, next.compacted_summary_sha256!)).toString('utf8');
    expect(markdown).toMatch(/Rebuilt from the whole log: artifacts\/summary-01\.md could not be read \(.*does not match its hash/);
    expect(markdown).toContain('Refactor the auth module');
  });

  it("reuses Claude Code's own compaction summary: quoted in the summary and anchored", async () => {
    const { session, records } = await land([
      { role: 'system', content: 'Conversation compacted (auto, 160000 tokens before)', compaction: true } as MessageInput,
      { role: 'system', content: 'This session is being continued from a previous conversation.\nSummary: the user wants OAuth login; tests in tests/auth pass.', compactSummary: true, id: 'compact' } as MessageInput,
      { role: 'user', content: 'continue' },
    ]);
    const context = await prepareContext(fixture.store, session, records);
    const markdown = Buffer.from(await fixture.store.readArtifact(session.id, context.compacted_summary_ref!, context.compacted_summary_sha256!)).toString('utf8');
    expect(markdown).toContain('## Earlier context (compaction summary, message `compact`)');
    expect(markdown).toContain('> Summary: the user wants OAuth login; tests in tests/auth pass.');
    expect(context.anchor_message_ids).toContain('compact');
  });

  it('without a store write (a preview), the same anchors and estimate, and no summary ref', async () => {
    const { session, records } = await land(CONVERSATION);
    const preview = contextWithoutSummary(session, records);
    const real = await prepareContext(fixture.store, session, records);
    expect(preview).toEqual({ ...real, compacted_summary_ref: null, compacted_summary_sha256: null });
  });
});

describe("Claude Code's compaction through the real importer", () => {
  it('an imported session with a compact boundary and its isCompactSummary line hands that summary on', async () => {
    const home = join(fixture.root, 'home');
    const path = await writeLog(claudeLogPath(home, fixture.workDir, CLAUDE_SESSION_ID), [
      claude.user({ uuid: 'u1', cwd: fixture.workDir }, 'Add OAuth login to the web app'),
      claude.assistant({ uuid: 'a1', parentUuid: 'u1', cwd: fixture.workDir }, 'm1', claude.text('Starting with the callback route.')),
      claude.compactBoundary({ uuid: 'cb', cwd: fixture.workDir }, 'a1'),
      claude.user({ uuid: 'cs', parentUuid: 'cb', cwd: fixture.workDir, extra: { isCompactSummary: true } }, 'This session is being continued from a previous conversation. Summary: OAuth callback route done; tests in tests/auth pass; next is the logout flow.'),
      claude.user({ uuid: 'u2', parentUuid: 'cs', cwd: fixture.workDir }, 'Go on with logout.'),
    ]);
    const { session } = await importAgentSession(fixture.store, 'claude', path, { HOME: home });
    const context = await prepareContext(fixture.store, session, await fixture.store.readMessages(session.id));
    const markdown = Buffer.from(await fixture.store.readArtifact(session.id, context.compacted_summary_ref!, context.compacted_summary_sha256!)).toString('utf8');
    expect(markdown).toContain('## Earlier context (compaction summary, message `cs`)');
    expect(markdown).toContain('next is the logout flow');
    expect(markdown).toContain('Add OAuth login to the web app');
    expect(context.anchor_message_ids).toContain('cs');
  });
});

describe('the goal message', () => {
  it('is read for constraints too: a rule stated with the goal is listed among the constraints', async () => {
    const { records } = await land([{ role: 'user', content: 'Fix the failing adder test; we must not change the public API.', id: 'g' }, { role: 'assistant', content: 'ok', id: 'a' }]);
    const state = extend(emptyState(), records);
    expect(state.goal?.id).toBe('g');
    expect(state.decisions).toEqual([{ id: 'g', seq: 0, role: 'user', text: 'Fix the failing adder test; we must not change the public API.', kind: 'constraint' }]);
  });
});
