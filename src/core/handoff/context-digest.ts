import type { MessageRecord } from '../../shared/message.js';
import { canonicalJson, sha256Hex } from '../hash.js';

export interface ContextDigest {
  message_count: number;
  messages_sha256: string;
  tool_calls_count: number;
  tool_calls_sha256: string;
  anchor_message_ids: string[];
  token_estimate: number;
}

/** A rough, model-independent estimate: about four characters a token. */
const CHARS_PER_TOKEN = 4;

/**
 * What the manifest says about the conversation, computed the same way on both sides so the
 * target can check the files on disk against the source's claim. The message hash chains each
 * record's seq, id and checksum, so any change, loss or reordering changes it.
 */
export function digestMessages(records: readonly MessageRecord[]): ContextDigest {
  const messages = sha256Stream();
  const tools = sha256Stream();
  let toolCalls = 0;
  let chars = 0;
  for (const record of records) {
    messages.add(`${record.seq}:${record.id}:${record.crc}\n`);
    chars += record.content.length;
    for (const call of record.toolCalls ?? []) {
      toolCalls++;
      tools.add(`${canonicalJson({ id: call.id, name: call.name, exitCode: call.exitCode ?? null })}\n`);
    }
  }
  const first = records[0];
  const last = records[records.length - 1];
  return {
    message_count: records.length,
    messages_sha256: messages.digest(),
    tool_calls_count: toolCalls,
    tool_calls_sha256: tools.digest(),
    anchor_message_ids: [first?.id, last?.id].filter((id, i, all): id is string => !!id && all.indexOf(id) === i),
    token_estimate: Math.ceil(chars / CHARS_PER_TOKEN),
  };
}

function sha256Stream() {
  const parts: string[] = [];
  return { add: (s: string) => parts.push(s), digest: () => sha256Hex(parts.join('')) };
}
