import { createReadStream } from 'node:fs';
import type { MessageInput } from '../../shared/message.js';
import { parseMessageLine, type MessageInputResult } from './read-message-input.js';

/** Bytes read at a time from a messages file: the input is never held whole, only its parsed messages. */
export const MESSAGE_INPUT_CHUNK_BYTES = 1024 * 1024;

/**
 * Longest single line accepted (one message). V8 cannot make a string much past 512 MiB, and a
 * line that long is not a message a terminal assistant wrote: named before it is decoded.
 */
export const MESSAGE_LINE_MAX_BYTES = 256 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Parses JSONL messages from a byte stream, a line at a time: the same rules and the same
 * errors (with the line number) as parseMessageInput on the whole text, without the whole text
 * (or the array of its lines) in memory. Lines are cut on '\n' bytes and then decoded, which
 * decodes exactly as the whole file would: '\n' never occurs inside a UTF-8 sequence.
 * `maxBytes` caps the input (stdin); a file has no cap beyond the line limit.
 */
export async function parseMessageStream(chunks: AsyncIterable<Uint8Array>, source: string, maxBytes = Infinity): Promise<MessageInputResult> {
  const messages: MessageInput[] = [];
  // The unfinished line: the pieces after the last '\n' seen, joined only when the line ends.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  let total = 0;
  const finish = (tail: Buffer): string | null => {
    lineNo++;
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    return parseMessageLine(bytes.toString('utf8'), source, lineNo, messages);
  };
  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    total += chunk.length;
    if (total > maxBytes) return { ok: false, message: `${source} holds more than ${maxBytes} bytes` };
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (pendingBytes + nl - start > MESSAGE_LINE_MAX_BYTES) return tooLong(source, lineNo + 1);
      const error = finish(chunk.subarray(start, nl));
      if (error !== null) return { ok: false, message: error };
      start = nl + 1;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > MESSAGE_LINE_MAX_BYTES) return tooLong(source, lineNo + 1);
      // A copy: the stream may reuse its buffer, and a subarray would pin the whole chunk.
      pending.push(Buffer.from(chunk.subarray(start)));
    }
  }
  // The last line, without its '\n' (split('\n') on the whole text yields it too; empty is skipped).
  const error = finish(Buffer.alloc(0));
  if (error !== null) return { ok: false, message: error };
  return { ok: true, messages };
}

function tooLong(source: string, lineNo: number): MessageInputResult {
  return { ok: false, message: `${source}:${lineNo}: line longer than ${MESSAGE_LINE_MAX_BYTES} bytes; one message a line, each at most that size` };
}

/** A messages file, parsed in chunks of MESSAGE_INPUT_CHUNK_BYTES. */
export async function parseMessageFile(path: string): Promise<MessageInputResult> {
  const stream = createReadStream(path, { highWaterMark: MESSAGE_INPUT_CHUNK_BYTES });
  try {
    return await parseMessageStream(stream, path);
  } catch (error) {
    return { ok: false, message: `cannot read ${path}: ${(error as Error).message}` };
  } finally {
    stream.destroy();
  }
}
