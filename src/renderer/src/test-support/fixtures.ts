import type { MessageRecord } from '../../../shared/message';
import type { IndexRow, SessionDoc } from '../../../shared/session';
import type { SessionDetail } from '../../../shared/ui-contract';

/** A valid index row; override what the test is about. */
export function row(overrides: Partial<IndexRow> & { id: string }): IndexRow {
  return {
    cwd: '/home/dev/projects/api',
    gitRoot: null,
    branch: 'main',
    title: `Session ${overrides.id}`,
    updatedAt: '2026-11-29T10:00:00.000Z',
    messageCount: 3,
    source: 'baton',
    holder: { who: 'desktop', epoch: 1 },
    parentId: null,
    archived: false,
    ...overrides,
  };
}

export function sessionDoc(overrides: Partial<SessionDoc> & { id: string }): SessionDoc {
  return {
    schemaVersion: 1,
    parentId: null,
    createdAt: '2026-11-29T09:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
    cwd: '/home/dev/projects/api',
    gitRoot: '/home/dev/projects/api',
    branch: 'main',
    title: `Session ${overrides.id}`,
    source: { tool: 'claude' },
    model: { name: 'claude-sonnet' },
    permission: { mode: 'default', rules: [] },
    holder: { who: 'desktop', epoch: 2 },
    revision: 1,
    messageCount: 0,
    archived: false,
    ...overrides,
  };
}

export function message(seq: number, overrides: Partial<MessageRecord> = {}): MessageRecord {
  return {
    seq,
    id: `m${seq}`,
    role: 'user',
    content: `message ${seq}`,
    createdAt: '2026-11-29T09:30:00.000Z',
    crc: '00000000',
    ...overrides,
  };
}

export function detail(id: string, messages: MessageRecord[], overrides: Partial<SessionDoc> = {}): SessionDetail {
  return { session: sessionDoc({ id, messageCount: messages.length, ...overrides }), messages, truncated: false };
}
