import type { MessageInput } from '../../shared/message.js';
import type { LandingBatch } from '../store/types.js';
import type { StreamRedactor } from '../redact/redact-value.js';
import { trimToolOutputs } from '../context/trim-tool-output.js';
import type { InputScan, MessageSource } from './message-source.js';
import { MessageInputError } from './stream-message-input.js';

/**
 * Characters of message text redacted and trimmed as one batch. Measured at 1,000,000 messages
 * (bench/README.md, issue 20 fifth sitting): 4 MiB batches peaked at 254 MB RSS, 1 MiB at 219,
 * 256 KiB at 224 with the same CPU; the live heap stays ~15–20 MB whatever the session size.
 */
export const LANDING_BATCH_CHARS = 1024 * 1024;

/**
 * The second read of a new session's input: messages in batches of about LANDING_BATCH_CHARS,
 * each redacted (with the whole input's keyed secrets, from the scan) and its large tool outputs
 * trimmed into artifacts, ready for the store's LandingWriter. Throws when the input is not the
 * one scanned (another count, or a file that changed).
 */
export async function* redactedBatches(source: MessageSource, scan: InputScan, redactor: StreamRedactor, batchChars = LANDING_BATCH_CHARS): AsyncGenerator<LandingBatch> {
  let batch: MessageInput[] = [];
  let chars = 0;
  let count = 0;
  const done = async (): Promise<LandingBatch> => {
    const redacted = await redactor.redact(batch);
    batch = [];
    chars = 0;
    // Large tool outputs are trimmed structurally; their full text lands with the session, by hash.
    return trimToolOutputs(redacted);
  };
  for await (const part of source.parts()) {
    for (const message of part) {
      batch.push(message);
      chars += charsOf(message);
      count++;
      if (chars >= batchChars) yield await done();
    }
  }
  if (batch.length > 0) yield await done();
  if (count !== scan.count) throw new MessageInputError(`the input held ${scan.count} messages when scanned and ${count} when read again; nothing was saved`);
  await source.checkUnchanged?.(scan);
}

/** About the characters a message brings to the detector: its content and tool outputs. */
function charsOf(message: MessageInput): number {
  let chars = message.content.length + 64;
  for (const call of message.toolCalls ?? []) chars += (call.output?.length ?? 0) + 64;
  return chars;
}
