import type { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS } from './claude-stream.js';

/**
 * `codex exec --json` output (0.169.0), one JSON event a line: `item.started` / `item.completed`
 * with items of type agent_message and error; `turn.failed` and `error`. Tool calls are read from
 * the rollout instead (codex-rollout-tools.ts). Anything else is skipped; a line that is not JSON becomes an error event naming it.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

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
    // Shell calls and patches are not read here: with an approval policy set, 0.169.0 leaves them
    // out of stdout. The tool cards come from the rollout (codex-rollout-tools.ts), the one source.
    case 'error':
      // Codex reports a missing model catalogue entry as an error item and goes on: shown, not fatal.
      return done && typeof item.message === 'string' ? [{ kind: 'error', message: item.message }] : [];
    default:
      return [];
  }
}
