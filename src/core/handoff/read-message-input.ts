import { MessageInput } from '../../shared/message.js';
import { describeZodError } from '../../shared/manifest.js';
import { admitMessageInput } from '../../shared/message-input-check.js';

/** Largest messages file `baton handoff` reads (the store itself has no such cap). */
export const MESSAGE_INPUT_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Deepest nesting a message may have (tool input included). Real tool input is a few levels
 * deep; thousands of levels overflow JSON.stringify when the store writes the record, and that
 * is an input problem to name here, not a disk failure to report later.
 */
export const MESSAGE_MAX_DEPTH = 256;

/** True when `value` nests objects/arrays deeper than `max` levels. Iterative: any depth is safe to measure. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

export type MessageInputResult = { ok: true; messages: MessageInput[] } | { ok: false; message: string };

/**
 * Parses the JSONL a terminal assistant hands to `baton handoff`: one message object a line,
 * blank lines ignored. The first bad line is reported with its number and what is wrong.
 */
export function parseMessageInput(text: string, source: string): MessageInputResult {
  const messages: MessageInput[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const error = parseMessageLine(lines[i]!, source, i + 1, messages);
    if (error !== null) return { ok: false, message: error };
  }
  return { ok: true, messages };
}

/**
 * One line of the input (without its '\n'; a trailing '\r' is dropped, blank lines are skipped):
 * pushes its message onto `into`, or answers the error naming `source:lineNo`. Shared by the
 * whole-text parse above and the streamed one (stream-message-input.ts), so both say the same.
 */
export function parseMessageLine(raw: string, source: string, lineNo: number, into: MessageInput[]): string | null {
  const line = raw.replace(/\r$/, '');
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // JSON.parse's message quotes the start of the line: the file may be /etc/shadow. Never echo content.
    return `${source}:${lineNo}: not valid JSON (each line must be one {"role","content"} object; the line's content is not shown)`;
  }
  if (nestedDeeperThan(value, MESSAGE_MAX_DEPTH)) {
    return `${source}:${lineNo}: nested deeper than ${MESSAGE_MAX_DEPTH} levels; Baton stores messages up to that depth`;
  }
  // The hand check admits what the schema admits without zod's first-parse compile; whatever it
  // does not admit is the schema's to judge and to word.
  const admitted = admitMessageInput(value);
  if (admitted !== null) {
    into.push(admitted);
    return null;
  }
  const parsed = MessageInput.safeParse(value);
  if (!parsed.success) return `${source}:${lineNo}: ${describeZodError(parsed.error)}`;
  into.push(parsed.data);
  return null;
}
