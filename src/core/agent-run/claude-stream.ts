import type { RunEvent } from '../../shared/agent-run.js';

/**
 * Claude Code's `--output-format stream-json --verbose` output, one JSON object a line, turned
 * into run events. Only the shapes the UI needs are read (assistant text and tool_use blocks,
 * user tool_result blocks, the closing result); anything else is skipped, and a line that is not
 * JSON becomes an error event naming the line, never a crash.
 */
/** A line longer than this is reported, not parsed (a runaway tool output). */
export const MAX_STREAM_LINE_CHARS = 8 * 1024 * 1024;
/** Tool output shown while streaming; the full output is in the agent's log and the re-import. */
export const STREAM_OUTPUT_MAX_CHARS = 16 * 1024;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : '')).join('');
  return '';
}

function clip(text: string): string {
  return text.length > STREAM_OUTPUT_MAX_CHARS ? `${text.slice(0, STREAM_OUTPUT_MAX_CHARS)}\n… (${text.length - STREAM_OUTPUT_MAX_CHARS} more characters in the session log)` : text;
}

export function parseClaudeStreamLine(line: string, lineNo: number): RunEvent[] {
  const trimmed = line.trim();
  if (trimmed === '') return [];
  if (trimmed.length > MAX_STREAM_LINE_CHARS) return [{ kind: 'error', message: `stream-json line ${lineNo} is over ${MAX_STREAM_LINE_CHARS} characters; skipped` }];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return [{ kind: 'error', message: `stream-json line ${lineNo} is not JSON: ${trimmed.slice(0, 120)}` }];
  }
  if (!isObject(value)) return [{ kind: 'error', message: `stream-json line ${lineNo} is not an object` }];
  const message = isObject(value.message) ? value.message : null;
  const blocks = Array.isArray(message?.content) ? message.content.filter(isObject) : [];
  const uuid = typeof value.uuid === 'string' ? value.uuid : `line-${lineNo}`;
  const events: RunEvent[] = [];
  if (value.type === 'assistant') {
    blocks.forEach((b, i) => {
      if (b.type === 'text' && typeof b.text === 'string' && b.text !== '') events.push({ kind: 'text', id: `${uuid}:${i}`, text: b.text });
      if (b.type === 'tool_use' && typeof b.id === 'string') events.push({ kind: 'tool-call', id: b.id, name: typeof b.name === 'string' ? b.name : 'unknown', input: b.input ?? {} });
    });
  } else if (value.type === 'user') {
    for (const b of blocks) {
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') events.push({ kind: 'tool-result', id: b.tool_use_id, output: clip(textOf(b.content)), isError: b.is_error === true });
    }
  } else if (value.type === 'result' && value.is_error === true) {
    const errors = Array.isArray(value.errors) ? value.errors.map(String).join('; ') : '';
    events.push({ kind: 'error', message: `Claude Code reported an error: ${errors || (typeof value.result === 'string' ? value.result : String(value.subtype ?? 'unknown'))}` });
  }
  return events;
}
