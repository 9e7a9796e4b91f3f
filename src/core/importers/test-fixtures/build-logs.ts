import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Builders for Claude Code and Codex CLI log lines, written from the tools' public formats
 * (docs/importer-*.md). Tests compose sessions from these instead of copying real user logs.
 */

export const CLAUDE_SESSION_ID = '11111111-2222-4333-8444-555555555555';
export const CODEX_SESSION_ID = '019a0000-aaaa-7bbb-8ccc-dddddddddddd';

let clock = Date.parse('2026-11-01T10:00:00.000Z');
export function nextTimestamp(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

interface ClaudeCommon {
  uuid: string;
  parentUuid?: string | null;
  timestamp?: string;
  cwd?: string;
  gitBranch?: string;
  sessionId?: string;
  extra?: Record<string, unknown>;
}

function claudeBase(c: ClaudeCommon, type: string): Record<string, unknown> {
  return {
    parentUuid: c.parentUuid ?? null,
    isSidechain: false,
    userType: 'external',
    cwd: c.cwd ?? '/home/dev/project',
    sessionId: c.sessionId ?? CLAUDE_SESSION_ID,
    version: '2.1.39',
    gitBranch: c.gitBranch ?? 'main',
    type,
    uuid: c.uuid,
    timestamp: c.timestamp ?? nextTimestamp(),
    ...c.extra,
  };
}

export const claude = {
  snapshot: (messageId: string) => ({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: {}, timestamp: nextTimestamp() }, isSnapshotUpdate: false }),
  user: (c: ClaudeCommon, content: unknown) => ({ ...claudeBase(c, 'user'), message: { role: 'user', content }, permissionMode: 'acceptEdits' }),
  meta: (c: ClaudeCommon, content: string) => ({ ...claudeBase(c, 'user'), isMeta: true, message: { role: 'user', content } }),
  assistant: (c: ClaudeCommon, messageId: string, block: Record<string, unknown>, model = 'claude-opus-4-6') => ({
    ...claudeBase(c, 'assistant'),
    message: { model, id: messageId, type: 'message', role: 'assistant', content: [block], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } },
    requestId: `req_${messageId}`,
  }),
  text: (text: string) => ({ type: 'text', text }),
  thinking: (thinking: string) => ({ type: 'thinking', thinking, signature: 'sig' }),
  toolUse: (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input }),
  toolResult: (c: ClaudeCommon, toolUseId: string, content: string, isError: boolean, toolUseResult: unknown) => ({
    ...claudeBase(c, 'user'),
    message: { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content, is_error: isError }] },
    toolUseResult,
  }),
  system: (c: ClaudeCommon, subtype: string, extra: Record<string, unknown> = {}) => ({ ...claudeBase(c, 'system'), subtype, ...extra, isMeta: false }),
  compactBoundary: (c: ClaudeCommon, logicalParentUuid: string) => ({
    ...claudeBase({ ...c, parentUuid: null }, 'system'),
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    logicalParentUuid,
    compactMetadata: { trigger: 'auto', preTokens: 170251 },
  }),
  summary: (leafUuid: string) => ({ type: 'summary', summary: 'Fix the flaky test', leafUuid }),
};

function codexLine(type: string, payload: Record<string, unknown>, timestamp = nextTimestamp()) {
  return { timestamp, type, payload };
}

export const codex = {
  meta: (id = CODEX_SESSION_ID, cwd = '/home/dev/api', branch = 'feature/x') =>
    codexLine('session_meta', {
      id,
      timestamp: nextTimestamp(),
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.77.0',
      source: 'cli',
      model_provider: 'openai',
      git: { commit_hash: 'abc123', branch, repository_url: 'git@example.com:dev/api.git' },
    }),
  turnContext: (model = 'gpt-5-codex', approval = 'on-request', sandbox: unknown = { type: 'workspace-write', network_access: false }) =>
    codexLine('turn_context', { cwd: '/home/dev/api', approval_policy: approval, sandbox_policy: sandbox, model, effort: 'medium' }),
  message: (role: string, text: string) => codexLine('response_item', { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] }),
  userEvent: (text: string) => codexLine('event_msg', { type: 'user_message', message: text, images: [] }),
  reasoning: () => codexLine('response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: 'xyz' }),
  call: (callId: string, name: string, args: unknown) => codexLine('response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId }),
  output: (callId: string, output: string) => codexLine('response_item', { type: 'function_call_output', call_id: callId, output }),
  execEnd: (callId: string, exitCode: number) => codexLine('event_msg', { type: 'exec_command_end', call_id: callId, exit_code: exitCode, stdout: '', stderr: '' }),
  tokenCount: () => codexLine('event_msg', { type: 'token_count', info: null }),
  compacted: (message: string) => codexLine('compacted', { message }),
};

/**
 * JSONL text of `lines`: objects are serialised, strings written as they are. A string as the
 * last element is a torn write: it gets no final newline, as when a writer dies mid-line.
 */
export function jsonl(lines: unknown[]): string {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  return typeof lines[lines.length - 1] === 'string' ? text : `${text}\n`;
}

export async function writeLog(path: string, lines: unknown[]): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, jsonl(lines));
  return path;
}

/** Where a fake HOME keeps each tool's logs. */
export function claudeLogPath(home: string, cwd: string, id: string): string {
  return join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`);
}

export function codexLogPath(codexHome: string, id: string, day = '2026/11/01'): string {
  return join(codexHome, 'sessions', day, `rollout-${day.replace(/\//g, '-')}T10-00-00-${id}.jsonl`);
}

/**
 * `count` Claude Code sessions over 7 directories whose first prompts carry `marker` (titles in
 * several scripts, lengths varied): a listing of 900 is several socket frames (the hosted listing
 * tests of issue 17). Session ids start with `idPrefix` (8 hex digits).
 */
export async function writeMarkedClaudeSessions(home: string, marker: string, count: number, idPrefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const cwd = `/home/dev/p${i % 7}`;
    const id = `${idPrefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await writeLog(claudeLogPath(home, cwd, id), [
      claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, `${marker} prompt ${i} "quoted" ✓ 😀 ${'y'.repeat(i % 150)}`),
      claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id }, `${id}-m`, claude.text('ok')),
    ]);
  }
}
