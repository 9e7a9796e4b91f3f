import type { MessageRecord } from '../../shared/message.js';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../hash.js';

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
  const digest = new DigestBuilder();
  for (const record of records) digest.add(record);
  return digest.result();
}

/** digestMessages a record at a time, as a landing writes them (issue 20: the records are not kept). */
export class DigestBuilder {
  private readonly messages = sha256Stream();
  private readonly tools = sha256Stream();
  private count = 0;
  private toolCalls = 0;

  add(record: MessageRecord): void {
    this.count++;
    this.messages.add(`${record.seq}:${record.id}:${record.crc}\n`);
    for (const call of record.toolCalls ?? []) {
      this.toolCalls++;
      // The full output's hash, when it was trimmed into an artifact, is part of the record.
      this.tools.add(`${canonicalJson({ id: call.id, name: call.name, exitCode: call.exitCode ?? null, ...(call.fullOutput ? { output: call.fullOutput.sha256 } : {}) })}\n`);
    }
  }

  result(): ContextDigest {
    return { message_count: this.count, messages_sha256: this.messages.digest(), tool_calls_count: this.toolCalls, tool_calls_sha256: this.tools.digest() };
  }
}

/** Text handed to the hash at a time: one update per ~64 KiB, not one per record nor one string of the whole log. */
const DIGEST_BATCH_CHARS = 64 * 1024;

function sha256Stream() {
  const hash = createHash('sha256');
  let pending = '';
  return {
    add: (s: string) => {
      pending += s;
      if (pending.length >= DIGEST_BATCH_CHARS) {
        hash.update(pending, 'utf8');
        pending = '';
      }
    },
    digest: () => hash.update(pending, 'utf8').digest('hex'),
  };
}
