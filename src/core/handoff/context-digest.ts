import type { MessageRecord } from '../../shared/message.js';
import { canonicalJson, sha256Hex } from '../hash.js';

export interface ContextDigest {
  message_count: number;
  messages_sha256: string;
  tool_calls_count: number;
  tool_calls_sha256: string;
}

/**
 * The counts and hashes the manifest says about the conversation (anchors, summary and token
 * estimate come from src/core/context), computed the same way on both sides so the
 * target can check the files on disk against the source's claim. The message hash chains each
 * record's seq, id and checksum, so any change, loss or reordering changes it.
 */
export function digestMessages(records: readonly MessageRecord[]): ContextDigest {
  const messages = sha256Stream();
  const tools = sha256Stream();
  let toolCalls = 0;
  for (const record of records) {
    messages.add(`${record.seq}:${record.id}:${record.crc}\n`);
    for (const call of record.toolCalls ?? []) {
      toolCalls++;
      // The full output's hash, when it was trimmed into an artifact, is part of the record.
      tools.add(`${canonicalJson({ id: call.id, name: call.name, exitCode: call.exitCode ?? null, ...(call.fullOutput ? { output: call.fullOutput.sha256 } : {}) })}\n`);
    }
  }
  return {
    message_count: records.length,
    messages_sha256: messages.digest(),
    tool_calls_count: toolCalls,
    tool_calls_sha256: tools.digest(),
  };
}

function sha256Stream() {
  const parts: string[] = [];
  return { add: (s: string) => parts.push(s), digest: () => sha256Hex(parts.join('')) };
}
