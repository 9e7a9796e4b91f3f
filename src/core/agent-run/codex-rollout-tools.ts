import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { RunEvent } from '../../shared/agent-run.js';
import { MAX_STREAM_LINE_CHARS, STREAM_OUTPUT_MAX_CHARS } from './claude-stream.js';

/**
 * Codex 0.169.0's `exec --json` leaves shell calls out of stdout when an approval policy is set
 * (`-c approval_policy=…`, which Baton passes whenever the session recorded one): the command
 * runs, but no `command_execution` item is printed. Its rollout always holds them, as
 * `response_item` records (`function_call` / `custom_tool_call`, then `*_output` with the same
 * call_id). So the tool cards of a Codex run are read from the rollout as it grows.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const clip = (t: string): string => (t.length > STREAM_OUTPUT_MAX_CHARS ? `${t.slice(0, STREAM_OUTPUT_MAX_CHARS)}\n… (${t.length - STREAM_OUTPUT_MAX_CHARS} more characters in the session log)` : t);
/** How often the rollout is read for new lines during a run. */
export const ROLLOUT_POLL_MS = 200;
/** Bytes read per poll at most, so a huge burst is taken in steps. */
const READ_CHUNK_BYTES = 1024 * 1024;
const EXIT_CODE = /^Process exited with code (-?\d+)$/m;

export function parseCodexRolloutToolLine(line: string): RunEvent[] {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || trimmed.length > MAX_STREAM_LINE_CHARS) return [];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return []; // a torn or foreign line: the agent's log is read again after the run anyway
  }
  if (!isObject(value) || value.type !== 'response_item' || !isObject(value.payload)) return [];
  const p = value.payload;
  if (typeof p.call_id !== 'string') return [];
  if (p.type === 'function_call' || p.type === 'custom_tool_call') {
    const name = typeof p.name === 'string' ? p.name : 'tool';
    const raw = typeof p.arguments === 'string' ? p.arguments : typeof p.input === 'string' ? p.input : '';
    let args: unknown = raw;
    try {
      args = JSON.parse(raw);
    } catch {
      // custom tools (apply_patch) carry plain text
    }
    const input = isObject(args) && typeof args.cmd === 'string' ? { command: args.cmd } : isObject(args) ? args : { input: raw };
    return [{ kind: 'tool-call', id: p.call_id, name, input }];
  }
  if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
    const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
    const code = EXIT_CODE.exec(output);
    const marker = output.indexOf('\nOutput:\n');
    return [{ kind: 'tool-result', id: p.call_id, output: clip(marker >= 0 ? output.slice(marker + '\nOutput:\n'.length) : output), isError: code !== null && code[1] !== '0' }];
  }
  return [];
}

export interface RolloutTail {
  /** Reads what is left, then stops. */
  close(): Promise<void>;
}

/** Follows the rollout from `fromByte` (its size before the run) and reports the tool events of new lines. */
export function tailCodexRollout(path: string, fromByte: number, onEvents: (events: RunEvent[]) => void): RolloutTail {
  let offset = fromByte;
  let partial = '';
  // A character split across two reads is joined, not garbled.
  const decoder = new StringDecoder('utf8');
  let reading: Promise<void> = Promise.resolve();
  const readNew = async (): Promise<void> => {
    const handle = await open(path, 'r').catch(() => null);
    if (!handle) return;
    try {
      for (;;) {
        const buffer = Buffer.alloc(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, offset);
        if (bytesRead === 0) return;
        offset += bytesRead;
        const lines = (partial + decoder.write(buffer.subarray(0, bytesRead))).split('\n');
        partial = lines.pop()!;
        const events = lines.flatMap((l) => parseCodexRolloutToolLine(l));
        if (events.length > 0) onEvents(events);
      }
    } finally {
      await handle.close();
    }
  };
  const timer = setInterval(() => {
    reading = reading.then(readNew).catch(() => undefined);
  }, ROLLOUT_POLL_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      reading = reading.then(readNew).catch(() => undefined);
      await reading;
    },
  };
}
