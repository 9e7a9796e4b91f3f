import { seededRandom } from '../../test-support/seeded-random.js';

/**
 * Generated Claude Code and Codex transcripts for the streaming-import equivalence test (issue 20):
 * tool results early, late, far later, missing, duplicated and before their call; responses
 * continued many lines later; sidechains, compactions, meta and instruction lines; huge lines,
 * garbage lines, CRLF, a BOM, torn tails; secrets under secret-named keys repeated elsewhere,
 * split across lines and in outputs. Same seed, same text.
 */
export interface Transcript {
  name: string;
  source: 'claude' | 'codex';
  text: string;
}

const SECRETS = ['hunter2-the-long-password', 'sk-live-abcdefghijklmnopqrstuvwx', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'];
const AWS = 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const WORDS = ['parser', 'build', 'stream', 'the', 'reader', 'passes', 'fails', 'fixes', 'line', 'test', 'memory', 'and', 'next'];

export function transcriptCorpus(count: number, seed = 20): Transcript[] {
  const out: Transcript[] = [];
  for (let i = 0; i < count; i++) {
    const source = i % 2 === 0 ? 'claude' : 'codex';
    const rand = seededRandom(seed * 100_003 + i);
    const lines = source === 'claude' ? claudeLines(rand, i) : codexLines(rand, i);
    out.push({ name: `${source}-${String(i).padStart(3, '0')}`, source, text: finish(lines, rand) });
  }
  return out;
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const chance = (rand: Rand, p: number) => rand() < p;

function sentence(rand: Rand, i: number): string {
  const n = 3 + Math.floor(rand() * 12);
  const words: string[] = [];
  for (let k = 0; k < n; k++) words.push(pick(rand, WORDS));
  if (chance(rand, 0.06)) words.push(pick(rand, SECRETS));
  if (chance(rand, 0.03)) words.push(`\n${AWS}\n`);
  if (chance(rand, 0.04)) words.push('\n'.repeat(2) + 'second paragraph');
  return `${words.join(' ')} (${i})`;
}

/** Text of `chars` characters: a huge line in the transcript. */
function huge(rand: Rand, chars: number): string {
  const line = `${pick(rand, WORDS)} output line of a long build log\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/** Serialised lines, CRLF or LF, a BOM sometimes, garbage and torn tails sometimes. */
function finish(lines: unknown[], rand: Rand): string {
  const texts = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  if (chance(rand, 0.1)) texts.splice(Math.floor(rand() * texts.length), 0, '{"type":"user","message":{"content":"cut');
  if (chance(rand, 0.1)) texts.splice(Math.floor(rand() * texts.length), 0, 'not json at all', '');
  const eol = chance(rand, 0.15) ? '\r\n' : '\n';
  let text = texts.join(eol) + (chance(rand, 0.1) ? `${eol}{"type":"assistant","mess` : eol);
  if (chance(rand, 0.08)) text = `\ufeff${text}`;
  return text;
}

function claudeLines(rand: Rand, caseNo: number): unknown[] {
  const session = `11111111-2222-4333-8444-${String(caseNo).padStart(12, '0')}`;
  const lines: unknown[] = [];
  const pending: { id: string; due: number; dup: boolean }[] = [];
  const early: string[] = [];
  const responses: string[] = [];
  let n = 0;
  let parent: string | null = null;
  const total = 4 + Math.floor(rand() * (chance(rand, 0.1) ? 160 : 40));
  const base = (type: string, extra: Record<string, unknown> = {}) => {
    const uuid = chance(rand, 0.003) && n > 2 ? `u-${caseNo}-${n - 2}` : `u-${caseNo}-${n}`;
    const line: Record<string, unknown> = {
      parentUuid: parent,
      isSidechain: chance(rand, 0.05),
      cwd: '/nonexistent/baton-corpus',
      sessionId: session,
      version: '2.1.39',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: new Date(Date.UTC(2026, 10, 30, 10, 0, n)).toISOString(),
      ...extra,
    };
    if (chance(rand, 0.05)) delete line.uuid;
    parent = uuid;
    n++;
    return line;
  };
  const result = (id: string) => {
    const content = chance(rand, 0.05) ? huge(rand, 200_000 + Math.floor(rand() * 200_000)) : chance(rand, 0.3) ? [{ type: 'text', text: sentence(rand, n) }] : sentence(rand, n);
    const isError = chance(rand, 0.2);
    const block = { tool_use_id: id, type: 'tool_result', content: isError && typeof content === 'string' ? `Exit code ${Math.floor(rand() * 3)}\n${content}` : content, is_error: isError };
    const extra = chance(rand, 0.3) ? { toolUseResult: { stdout: 'x', exitCode: Math.floor(rand() * 2) } } : chance(rand, 0.3) ? { toolUseResult: 'Error: failed' } : {};
    return base('user', { message: { role: 'user', content: [block] }, permissionMode: pick(rand, ['default', 'acceptEdits', 'plan']), ...extra });
  };
  for (let step = 0; step < total; step++) {
    // Results that are due now (some are never due: missing; some twice: duplicated).
    for (let k = pending.length - 1; k >= 0; k--) {
      const p = pending[k]!;
      if (p.due > step) continue;
      pending.splice(k, 1);
      lines.push(result(p.id));
      if (p.dup) lines.push(result(p.id));
    }
    const r = rand();
    if (r < 0.18) {
      lines.push(base('user', { message: { role: 'user', content: chance(rand, 0.3) ? [{ type: 'text', text: sentence(rand, n) }, { type: 'image', source: {} }] : sentence(rand, n) }, permissionMode: 'default' }));
    } else if (r < 0.55) {
      // One API response over one or more lines; sometimes continued much later.
      const continued = chance(rand, 0.1) && responses.length > 0;
      const messageId = continued ? pick(rand, responses) : `msg_${caseNo}_${n}`;
      if (!continued) responses.push(messageId);
      const model = pick(rand, ['claude-opus-4-6', 'claude-sonnet-4-5', '<synthetic>']);
      const blocks: unknown[] = [];
      if (chance(rand, 0.3)) blocks.push({ type: 'thinking', thinking: 'hmm', signature: 's' });
      if (chance(rand, 0.7)) blocks.push({ type: 'text', text: chance(rand, 0.03) ? huge(rand, 250_000) : sentence(rand, n) });
      const calls = chance(rand, 0.5) ? 1 + Math.floor(rand() * 3) : 0;
      for (let c = 0; c < calls; c++) {
        const id = chance(rand, 0.05) && early.length > 0 ? pick(rand, early) : `toolu_${caseNo}_${n}_${c}`;
        const input: Record<string, unknown> = { command: sentence(rand, n) };
        if (chance(rand, 0.15)) input.api_key = pick(rand, SECRETS);
        if (chance(rand, 0.05)) input.nested = { client_secret: `${pick(rand, SECRETS)}-x`, deeper: { password: 'correct horse battery staple' } };
        blocks.push({ type: 'tool_use', id, name: pick(rand, ['Bash', 'Read', 'Edit']), input });
        const when = rand();
        // Early (next step), late (a few steps), far later, missing, or before the call (dangling).
        if (when < 0.45) pending.push({ id, due: step + 1, dup: chance(rand, 0.08) });
        else if (when < 0.7) pending.push({ id, due: step + 2 + Math.floor(rand() * 5), dup: chance(rand, 0.08) });
        else if (when < 0.8) pending.push({ id, due: step + 20 + Math.floor(rand() * 60), dup: false });
        else if (when < 0.9) early.push(id);
        else lines.push(result(id));
      }
      const lineBlocks = chance(rand, 0.5) ? [blocks] : blocks.map((b) => [b]);
      for (const content of lineBlocks) {
        if (content.length === 0) continue;
        lines.push(base('assistant', { message: { model, id: messageId, type: 'message', role: 'assistant', content: chance(rand, 0.05) ? sentence(rand, n) : content }, requestId: `req_${messageId}` }));
      }
    } else if (r < 0.62 && early.length > 0) {
      lines.push(result(early.shift()!));
    } else if (r < 0.66) {
      lines.push(base('system', { subtype: 'compact_boundary', content: 'Conversation compacted', logicalParentUuid: `u-${caseNo}-${Math.max(0, n - 3)}`, compactMetadata: { trigger: 'auto', preTokens: 1000 + n } }));
      lines.push(base('user', { isCompactSummary: true, message: { role: 'user', content: `This session is being continued. ${sentence(rand, n)}` } }));
    } else if (r < 0.7) {
      lines.push(base('user', { isMeta: chance(rand, 0.5), message: { role: 'user', content: pick(rand, ['<command-name>/clear</command-name>', '<local-command-stdout>ok</local-command-stdout>', '[Request interrupted by user]', '   ']) } }));
    } else if (r < 0.74) {
      lines.push(base('system', { subtype: 'informational', content: 'note' }));
      lines.push({ type: 'summary', summary: 'Fix', leafUuid: `u-${caseNo}-0` });
    } else if (r < 0.77) {
      lines.push({ type: 'file-history-snapshot', messageId: `m${n}`, snapshot: {} });
      lines.push({ type: 'something-new', value: n });
    } else {
      lines.push(base('user', { message: { role: 'user', content: sentence(rand, n) }, permissionMode: 'acceptEdits' }));
    }
  }
  return lines;
}

function codexLines(rand: Rand, caseNo: number): unknown[] {
  const session = `019a0000-aaaa-7bbb-8ccc-${String(caseNo).padStart(12, '0')}`;
  let n = 0;
  const at = () => new Date(Date.UTC(2026, 10, 30, 10, 0, n++)).toISOString();
  const line = (type: string, payload: Record<string, unknown>) => ({ timestamp: at(), type, payload });
  const lines: unknown[] = [line('session_meta', { id: session, timestamp: at(), cwd: '/nonexistent/baton-corpus', originator: 'codex_cli_rs', cli_version: '0.77.0', git: { branch: 'main' } })];
  const pending: { id: string; due: number; dup: boolean }[] = [];
  const early: string[] = [];
  const total = 4 + Math.floor(rand() * (chance(rand, 0.1) ? 160 : 40));
  const output = (id: string) => {
    const text = chance(rand, 0.05) ? huge(rand, 200_000 + Math.floor(rand() * 200_000)) : sentence(rand, n);
    const raw = chance(rand, 0.3) ? JSON.stringify({ output: text, metadata: { exit_code: Math.floor(rand() * 3) } }) : chance(rand, 0.3) ? `Exit code: ${Math.floor(rand() * 2)}\n${text}` : text;
    return line('response_item', { type: chance(rand, 0.8) ? 'function_call_output' : 'custom_tool_call_output', call_id: id, output: raw });
  };
  for (let step = 0; step < total; step++) {
    for (let k = pending.length - 1; k >= 0; k--) {
      const p = pending[k]!;
      if (p.due > step) continue;
      pending.splice(k, 1);
      if (chance(rand, 0.3)) lines.push(line('event_msg', { type: 'exec_command_end', call_id: p.id, exit_code: Math.floor(rand() * 3) }));
      lines.push(output(p.id));
      if (p.dup) lines.push(output(p.id));
      if (chance(rand, 0.2)) lines.push(line('event_msg', { type: 'exec_command_end', call_id: p.id, exit_code: 7 }));
    }
    const r = rand();
    if (r < 0.1) {
      lines.push(line('turn_context', { cwd: '/nonexistent/baton-corpus', approval_policy: pick(rand, ['on-request', 'never']), sandbox_policy: chance(rand, 0.5) ? 'read-only' : { type: 'workspace-write' }, model: pick(rand, ['gpt-5-codex', 'gpt-5']) }));
    } else if (r < 0.3) {
      const role = pick(rand, ['user', 'user', 'assistant', 'developer']);
      const text = chance(rand, 0.1) ? '<environment_context>cwd</environment_context>' : chance(rand, 0.02) ? huge(rand, 250_000) : sentence(rand, n);
      lines.push(line('response_item', { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] }));
    } else if (r < 0.6) {
      const calls = 1 + Math.floor(rand() * 3);
      for (let c = 0; c < calls; c++) {
        const id = chance(rand, 0.05) && early.length > 0 ? pick(rand, early) : `call_${caseNo}_${n}_${c}`;
        const kind = pick(rand, ['function_call', 'function_call', 'custom_tool_call', 'local_shell_call']);
        const args: Record<string, unknown> = { cmd: sentence(rand, n) };
        if (chance(rand, 0.15)) args.token = pick(rand, SECRETS);
        const payload: Record<string, unknown> =
          kind === 'function_call'
            ? { type: kind, name: 'shell', arguments: chance(rand, 0.1) ? '{not json' : JSON.stringify(args), call_id: id }
            : kind === 'custom_tool_call'
              ? { type: kind, name: 'apply_patch', input: sentence(rand, n), call_id: id }
              : { type: kind, id: chance(rand, 0.5) ? id : undefined, call_id: chance(rand, 0.5) ? id : undefined, action: { command: ['ls'], access_token: pick(rand, SECRETS) } };
        lines.push(line('response_item', payload));
        if (chance(rand, 0.3)) lines.push(line('response_item', { type: 'reasoning', summary: [] }));
        const when = rand();
        if (when < 0.45) pending.push({ id, due: step + 1, dup: chance(rand, 0.08) });
        else if (when < 0.7) pending.push({ id, due: step + 2 + Math.floor(rand() * 5), dup: chance(rand, 0.08) });
        else if (when < 0.8) pending.push({ id, due: step + 20 + Math.floor(rand() * 60), dup: false });
        else if (when < 0.9) early.push(id);
        else lines.push(output(id));
      }
    } else if (r < 0.66 && early.length > 0) {
      lines.push(output(early.shift()!));
    } else if (r < 0.7) {
      lines.push(line('compacted', { message: chance(rand, 0.5) ? sentence(rand, n) : '' }));
    } else if (r < 0.78) {
      lines.push(line('event_msg', { type: pick(rand, ['token_count', 'agent_message', 'user_message']), message: 'x' }));
      lines.push(line('response_item', { type: pick(rand, ['reasoning', 'web_search_call', 'ghost_snapshot', 'unknown_item']) }));
    } else {
      lines.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: sentence(rand, n) }] }));
    }
  }
  return lines;
}
