import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Small, realistic Claude Code and Codex CLI session logs in a fake HOME, written from the tools'
 * formats (docs/importer-claude-code.md, docs/importer-codex.md), for the browser e2e tests.
 */
export interface FakeSession {
  id: string;
  cwd: string;
  branch: string;
  prompt: string;
  answer: string;
  /** ISO time of the first line; later lines follow a second apart. */
  startedAt: string;
}

const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

async function write(path: string, lines: unknown[]): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

export function writeClaudeSession(home: string, s: FakeSession): Promise<string> {
  const path = join(home, '.claude', 'projects', s.cwd.replace(/[^A-Za-z0-9]/g, '-'), `${s.id}.jsonl`);
  const base = { isSidechain: false, userType: 'external', cwd: s.cwd, sessionId: s.id, version: '2.1.39', gitBranch: s.branch };
  return write(path, [
    { type: 'file-history-snapshot', messageId: 'snap-1', snapshot: { messageId: 'snap-1', trackedFileBackups: {}, timestamp: s.startedAt }, isSnapshotUpdate: false },
    { ...base, parentUuid: null, type: 'user', uuid: 'u1', timestamp: plus(s.startedAt, 1), message: { role: 'user', content: s.prompt }, permissionMode: 'default' },
    {
      ...base,
      parentUuid: 'u1',
      type: 'assistant',
      uuid: 'a1',
      timestamp: plus(s.startedAt, 2),
      message: { model: 'claude-opus-4-6', id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: s.answer }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 20 } },
      requestId: 'req_1',
    },
  ]);
}

export function writeCodexSession(home: string, s: FakeSession): Promise<string> {
  const [date] = s.startedAt.split('T');
  const [year, month, day] = date!.split('-');
  const stamp = s.startedAt.slice(0, 19).replace(/:/g, '-');
  const path = join(home, '.codex', 'sessions', year!, month!, day!, `rollout-${stamp}-${s.id}.jsonl`);
  return write(path, [
    {
      timestamp: s.startedAt,
      type: 'session_meta',
      payload: { id: s.id, timestamp: s.startedAt, cwd: s.cwd, originator: 'codex_cli_rs', cli_version: '0.77.0', source: 'cli', model_provider: 'openai', git: { commit_hash: 'abc123', branch: s.branch, repository_url: 'git@example.com:dev/web.git' } },
    },
    { timestamp: plus(s.startedAt, 1), type: 'turn_context', payload: { cwd: s.cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5-codex', effort: 'medium' } },
    { timestamp: plus(s.startedAt, 2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: s.prompt }] } },
    { timestamp: plus(s.startedAt, 3), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: s.answer }] } },
  ]);
}
