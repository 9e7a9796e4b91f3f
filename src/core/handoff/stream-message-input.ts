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

/** A line of the input that is not a message, or a read that failed: `message` names the source and line. */
export class MessageInputError extends Error {
  readonly code = 'BAD_INPUT';
}

/**
 * Parses JSONL messages from a byte stream, a line at a time, yielding the messages of each chunk
 * read: the same rules and the same errors (with the line number) as parseMessageInput on the
 * whole text, without the whole text (or the array of its lines) in memory. Lines are cut on '\n'
 * bytes and then decoded, which decodes exactly as the whole file would: '\n' never occurs inside
 * a UTF-8 sequence. `maxBytes` caps the input (stdin). Throws MessageInputError at the first bad line.
 */
export async function* streamMessageLines(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, source: string, maxBytes = Infinity): AsyncGenerator<MessageInput[]> {
  // The unfinished line: the pieces after the last '\n' seen, joined only when the line ends.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  let total = 0;
  let messages: MessageInput[] = [];
  const finish = (tail: Buffer): void => {
    lineNo++;
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    const error = parseMessageLine(bytes.toString('utf8'), source, lineNo, messages);
    if (error !== null) throw new MessageInputError(error);
  };
  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    total += chunk.length;
    if (total > maxBytes) throw new MessageInputError(`${source} holds more than ${maxBytes} bytes`);
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (pendingBytes + nl - start > MESSAGE_LINE_MAX_BYTES) throw tooLong(source, lineNo + 1);
      finish(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > MESSAGE_LINE_MAX_BYTES) throw tooLong(source, lineNo + 1);
      // A copy: the stream may reuse its buffer, and a subarray would pin the whole chunk.
      pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (messages.length > 0) {
      yield messages;
      messages = [];
    }
  }
  // The last line, without its '\n' (split('\n') on the whole text yields it too; empty is skipped).
  finish(Buffer.alloc(0));
  if (messages.length > 0) yield messages;
}

function tooLong(source: string, lineNo: number): MessageInputError {
  return new MessageInputError(`${source}:${lineNo}: line longer than ${MESSAGE_LINE_MAX_BYTES} bytes; one message a line, each at most that size`);
}

/** Every message of a byte stream in one array (stdin, which cannot be read twice). */
export async function parseMessageStream(chunks: AsyncIterable<Uint8Array>, source: string, maxBytes = Infinity): Promise<MessageInputResult> {
  const messages: MessageInput[] = [];
  try {
    for await (const part of streamMessageLines(chunks, source, maxBytes)) for (const m of part) messages.push(m);
  } catch (error) {
    if (error instanceof MessageInputError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, messages };
}

/** A messages file's messages, a chunk of MESSAGE_INPUT_CHUNK_BYTES at a time; a read that fails is a MessageInputError naming the file. */
export async function* readMessageFile(path: string): AsyncGenerator<MessageInput[]> {
  const stream = createReadStream(path, { highWaterMark: MESSAGE_INPUT_CHUNK_BYTES });
  try {
    yield* streamMessageLines(stream, path);
  } catch (error) {
    if (error instanceof MessageInputError) throw error;
    throw new MessageInputError(`cannot read ${path}: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
}
