import type { MessageInput } from '../../../shared/message.js';
import type { MessageInputResult } from '../read-message-input.js';
import { MessageInputError, readMessageFile } from '../stream-message-input.js';

/**
 * A messages file read in chunks by the CLI's own reader (`readMessageFile`) and gathered into one
 * array: the whole-array input the equivalence tests compare the streamed landing against.
 */
export async function parseMessageFile(path: string): Promise<MessageInputResult> {
  const messages: MessageInput[] = [];
  try {
    for await (const part of readMessageFile(path)) for (const m of part) messages.push(m);
  } catch (error) {
    if (error instanceof MessageInputError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, messages };
}
