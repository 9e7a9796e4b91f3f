import { randomUUID } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A synthetic corpus in the two tools' formats, written fast by repeating realistic line blocks
 * with large buffered writes. Sizes are deterministic for a given scale.
 */
export interface CorpusSpec {
  claudeFiles: number;
  codexFiles: number;
  /** Multiplies every file size (1 = about 2 GB of Claude logs). */
  scale: number;
}

export interface CorpusFile {
  source: 'claude' | 'codex';
  path: string;
  size: number;
}

const PROJECTS = 40;
const WRITE_BUFFER = 8 * 1024 * 1024;

/** Deterministic pseudo-random in [0, 1) so two runs build the same corpus. */
function rand(i: number): number {
  const x = Math.sin(i * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
}

/** Claude sizes: 5 files of 60 MB, 10 % of 2-6 MB, 60 % of 0.2-1.5 MB, 30 % of 10-100 KB. */
export function claudeSize(i: number, scale: number): number {
  const r = rand(i);
  let bytes: number;
  if (i < 5) bytes = 60 * 1024 * 1024;
  else if (i % 10 === 0) bytes = (2 + 4 * r) * 1024 * 1024;
  else if (i % 10 < 4) bytes = (10 + 90 * r) * 1024;
  else bytes = (200 + 1300 * r) * 1024;
  return Math.round(bytes * scale);
}

/** Codex rollouts: 5-400 KB. */
export function codexSize(i: number, scale: number): number {
  return Math.round((5 + 395 * rand(i + 100_000) ** 2) * 1024 * scale);
}

function claudeBlock(sessionId: string, cwd: string, variant: number): string {
  const out: string[] = [];
  const common = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.39', gitBranch: 'main' };
  for (let k = 0; k < 5; k++) {
    const n = `${variant}-${k}`;
    const ts = new Date(Date.parse('2026-11-20T10:00:00Z') + variant * 60_000 + k * 1000).toISOString();
    const output = `src/file-${k}.ts:${variant} ok\n`.repeat(150);
    out.push(JSON.stringify({ parentUuid: `r${n}p`, ...common, type: 'user', message: { role: 'user', content: `Please look at module ${n} and fix the failing case` }, uuid: `u${n}`, timestamp: ts, permissionMode: 'default' }));
    out.push(JSON.stringify({ parentUuid: `u${n}`, ...common, message: { model: 'claude-opus-4-6', id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'I will run the tests first to see what fails.' }], usage: { input_tokens: 3, output_tokens: 9 } }, requestId: `req_${n}`, type: 'assistant', uuid: `a${n}`, timestamp: ts }));
    out.push(JSON.stringify({ parentUuid: `a${n}`, ...common, message: { model: 'claude-opus-4-6', id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: 'npm test', description: 'Run tests' } }], usage: { input_tokens: 1, output_tokens: 8 } }, requestId: `req_${n}`, type: 'assistant', uuid: `b${n}`, timestamp: ts }));
    out.push(JSON.stringify({ parentUuid: `b${n}`, ...common, type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${n}`, type: 'tool_result', content: output, is_error: false }] }, uuid: `r${n}`, timestamp: ts, toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false } }));
  }
  return out.join('\n') + '\n';
}

function codexBlock(variant: number): string {
  const ts = new Date(Date.parse('2026-11-20T10:00:00Z') + variant * 60_000).toISOString();
  const output = JSON.stringify({ output: 'test output line\n'.repeat(120), metadata: { exit_code: 0, duration_seconds: 1.2 } });
  return (
    [
      { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Refactor handler ${variant}` }] } },
      { timestamp: ts, type: 'event_msg', payload: { type: 'user_message', message: `Refactor handler ${variant}`, images: [] } },
      { timestamp: ts, type: 'response_item', payload: { type: 'reasoning', summary: [], content: null, encrypted_content: 'e'.repeat(800) } },
      { timestamp: ts, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'] }), call_id: `call_${variant}` } },
      { timestamp: ts, type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${variant}`, output } },
      { timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 1000, output_tokens: 100 } } } },
      { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done: the handler is refactored and tests pass.' }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n'
  );
}

async function writeRepeated(path: string, head: string, blocks: string[], size: number, tail: string): Promise<number> {
  const file = await open(path, 'w');
  let written = 0;
  try {
    const parts: string[] = [head];
    let pending = Buffer.byteLength(head);
    let k = 0;
    while (written + pending < size) {
      const block = blocks[k++ % blocks.length]!;
      parts.push(block);
      pending += Buffer.byteLength(block);
      if (pending >= WRITE_BUFFER) {
        await file.write(parts.join(''));
        written += pending;
        parts.length = 0;
        pending = 0;
      }
    }
    parts.push(tail);
    pending += Buffer.byteLength(tail);
    await file.write(parts.join(''));
    written += pending;
  } finally {
    await file.close();
  }
  return written;
}

export async function generateCorpus(home: string, spec: CorpusSpec): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  for (let i = 0; i < spec.claudeFiles; i++) {
    const cwd = `/home/dev/project-${i % PROJECTS}`;
    const dir = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    if (i < PROJECTS) await mkdir(dir, { recursive: true });
    const id = randomUUID();
    const blocks = Array.from({ length: 8 }, (_, v) => claudeBlock(id, cwd, v + i));
    const head =
      JSON.stringify({ type: 'file-history-snapshot', messageId: 'm0', snapshot: { messageId: 'm0', trackedFileBackups: {}, timestamp: '2026-11-20T09:59:00Z' }, isSnapshotUpdate: false }) +
      '\n' +
      JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.39', gitBranch: 'main', type: 'user', message: { role: 'user', content: `Session ${i}: make the build green` }, uuid: 'first', timestamp: '2026-11-20T09:59:30Z' }) +
      '\n';
    const path = join(dir, `${id}.jsonl`);
    files.push({ source: 'claude', path, size: await writeRepeated(path, head, blocks, claudeSize(i, spec.scale), '') });
  }
  for (let i = 0; i < spec.codexFiles; i++) {
    const day = `2026/${String(1 + (i % 12)).padStart(2, '0')}/${String(1 + (i % 28)).padStart(2, '0')}`;
    const dir = join(home, '.codex', 'sessions', day);
    await mkdir(dir, { recursive: true });
    const id = randomUUID();
    const meta = { timestamp: '2026-11-20T09:59:00Z', type: 'session_meta', payload: { id, timestamp: '2026-11-20T09:59:00Z', cwd: `/home/dev/api-${i % PROJECTS}`, originator: 'codex_cli_rs', cli_version: '0.77.0', instructions: 'x'.repeat(4000), git: { commit_hash: 'abc', branch: 'main', repository_url: 'git@example.com:dev/api.git' } } };
    const turn = { timestamp: '2026-11-20T09:59:01Z', type: 'turn_context', payload: { cwd: meta.payload.cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5-codex' } };
    const env = { timestamp: '2026-11-20T09:59:01Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/x</cwd>\n</environment_context>' }] } };
    const head = [meta, turn, env].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const blocks = Array.from({ length: 4 }, (_, v) => codexBlock(v + i));
    const path = join(dir, `rollout-${day.replace(/\//g, '-')}T10-00-00-${id}.jsonl`);
    files.push({ source: 'codex', path, size: await writeRepeated(path, head, blocks, codexSize(i, spec.scale), '') });
  }
  return files;
}
