import { MessageInput } from '../../shared/message.js';
import { describeZodError } from '../../shared/manifest.js';

/** Largest messages file `baton handoff` reads (the store itself has no such cap). */
export const MESSAGE_INPUT_MAX_BYTES = 512 * 1024 * 1024;

export type MessageInputResult = { ok: true; messages: MessageInput[] } | { ok: false; message: string };

/**
 * Parses the JSONL a terminal assistant hands to `baton handoff`: one message object a line,
 * blank lines ignored. The first bad line is reported with its number and what is wrong.
 */
export function parseMessageInput(text: string, source: string): MessageInputResult {
  const messages: MessageInput[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return { ok: false, message: `${source}:${i + 1}: not JSON (${(error as Error).message})` };
    }
    const parsed = MessageInput.safeParse(value);
    if (!parsed.success) return { ok: false, message: `${source}:${i + 1}: ${describeZodError(parsed.error)}` };
    messages.push(parsed.data);
  }
  return { ok: true, messages };
}
