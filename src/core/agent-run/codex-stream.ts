import type { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS, STREAM_OUTPUT_MAX_CHARS } from './claude-stream.js';
import { unwrapShellCommand } from './codex-shell-command.js';

/**
 * `codex exec --json` output (0.169.0), one JSON event a line: `item.started` / `item.completed`
 * with items of type agent_message, command_execution, file_change, error; `turn.failed` and
 * `error`. Anything else is skipped; a line that is not JSON becomes an error event naming it.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const clip = (t: string): string => (t.length > STREAM_OUTPUT_MAX_CHARS ? `${t.slice(0, STREAM_OUTPUT_MAX_CHARS)}\n… (${t.length - STREAM_OUTPUT_MAX_CHARS} more characters in the session log)` : t);

export function parseCodexStreamLine(line: string, lineNo: number): RunEvent[] {
  const trimmed = line.trim();
  if (trimmed === '' || !trimmed.startsWith('{')) return []; // codex prints plain warnings on stdout too
  if (trimmed.length > MAX_STREAM_LINE_CHARS) return [{ kind: 'error', message: `codex --json line ${lineNo} is over ${MAX_STREAM_LINE_CHARS} characters; skipped` }];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return [{ kind: 'error', message: `codex --json line ${lineNo} is not JSON: ${trimmed.slice(0, 120)}` }];
  }
  if (!isObject(value)) return [{ kind: 'error', message: `codex --json line ${lineNo} is not an object` }];
  if (value.type === 'turn.failed' || value.type === 'error') {
    const error = isObject(value.error) ? value.error.message : value.message;
    return [{ kind: 'error', message: `Codex reported an error: ${typeof error === 'string' ? error : 'unknown'}` }];
  }
  if (value.type !== 'item.started' && value.type !== 'item.completed') return [];
  const item = isObject(value.item) ? value.item : null;
  const id = typeof item?.id === 'string' ? item.id : `line-${lineNo}`;
  if (!item) return [];
  const done = value.type === 'item.completed';
  switch (item.type) {
    case 'agent_message':
      return done && typeof item.text === 'string' ? [{ kind: 'text', id, text: item.text }] : [];
    case 'command_execution': {
      // The card shows the model's command; `argv` keeps what Codex ran, shell wrapper and all.
      const printed = typeof item.command === 'string' ? item.command : '';
      const call: RunEvent = { kind: 'tool-call', id, name: 'exec_command', input: { command: unwrapShellCommand(printed), argv: printed } };
      if (!done) return [call];
      const output = typeof item.aggregated_output === 'string' ? item.aggregated_output : '';
      const failed = item.status === 'failed' || (typeof item.exit_code === 'number' && item.exit_code !== 0);
      return [{ kind: 'tool-result', id, output: clip(output), isError: failed }];
    }
    case 'file_change':
      return done ? [{ kind: 'tool-call', id, name: 'apply_patch', input: { path: Array.isArray(item.changes) ? item.changes.map((c) => (isObject(c) ? c.path : '')).join(', ') : '' } }, { kind: 'tool-result', id, output: String(item.status ?? ''), isError: item.status === 'failed' }] : [];
    case 'error':
      // Codex reports a missing model catalogue entry as an error item and goes on: shown, not fatal.
      return done && typeof item.message === 'string' ? [{ kind: 'error', message: item.message }] : [];
    default:
      return [];
  }
}
