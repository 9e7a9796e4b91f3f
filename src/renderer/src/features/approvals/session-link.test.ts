import { describe, expect, it } from 'vitest';
import { candidateRow } from '../../../../shared/agents';
import { row } from '../../test-support/fixtures';
import { claudeCandidate } from './test-support/approvals-host';
import { requestSession } from './session-link';

/** Which session a request's "Session" fact names and opens, for every way a request can be filed. */
const CLAUDE = '5d0c9a7e-3b1f-4c2d-9e8a-7f6b5a4c3d2e';
const CODEX = '019a7b2c-1d3e-7f40-8a51-b6c7d8e9f012';
const rows = [
  row({ id: 'sess-1', title: 'Billing refactor' }),
  candidateRow(claudeCandidate(CLAUDE, 'Fix the login redirect loop')),
  candidateRow({ ...claudeCandidate(CODEX, 'Stabilise the date picker test'), source: 'codex' }),
];

describe('requestSession', () => {
  const cases: Array<[string, Parameters<typeof requestSession>[0], ReturnType<typeof requestSession>]> = [
    ['a Baton session id', { sessionId: 'sess-1' }, { title: 'Billing refactor', rowId: 'sess-1', kind: 'baton' }],
    ['a Claude session id before import', { sessionId: CLAUDE, client: 'claude' }, { title: 'Fix the login redirect loop', rowId: `claude:${CLAUDE}`, kind: 'agent' }],
    ['a Codex session id before import', { sessionId: CODEX, client: 'codex' }, { title: 'Stabilise the date picker test', rowId: `codex:${CODEX}`, kind: 'agent' }],
    [
      'an agent session id after import (the host link wins)',
      { sessionId: CLAUDE, link: { batonSessionId: 'imp-1', title: 'Fix the login redirect loop', source: 'claude' } },
      { title: 'Fix the login redirect loop', rowId: 'imp-1', kind: 'baton' },
    ],
    ['a linked session with no title', { sessionId: 'x', link: { batonSessionId: 'imp-abcdef123456', title: '', source: 'codex' } }, { title: 'Session imp-abcd', rowId: 'imp-abcdef123456', kind: 'baton' }],
    ['an id nobody knows', { sessionId: '0f1e2d3c-aaaa-bbbb', client: 'codex' }, { title: 'codex session 0f1e2d3c…', rowId: null, kind: 'unknown' }],
    ['an unknown link', { sessionId: 'zz-unknown', link: { batonSessionId: null, title: null, source: null } }, { title: 'Agent session zz-unkno…', rowId: null, kind: 'unknown' }],
  ];
  for (const [what, filed, expected] of cases) it(`session link: ${what}`, () => expect(requestSession(filed, rows)).toEqual(expected));
});
