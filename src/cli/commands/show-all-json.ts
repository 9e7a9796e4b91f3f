import type { SessionStore } from '../../core/store/types.js';
import { recordJsonOfLine } from '../../core/store/line-crc.js';
import { CLI_JSON_VERSION } from '../output.js';

/** Output is handed to stdout in pieces of about this size: few writes, and memory bounded by it. */
export const SHOW_STREAM_FLUSH_BYTES = 256 * 1024;

/**
 * `baton show <id> --all --json`, streamed: the same object as the buffered form (keys in another
 * order: `messages` comes first, since the session's damage is known only once they are read),
 * written as the log is read, so memory stays flat for a session of any size. Each message is
 * the stored JSON spliced from its line (line-crc.ts), not parsed and serialised again.
 */
export async function writeAllMessagesJson(store: SessionStore, id: string, write: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  let parts: Buffer[] = [Buffer.from(`{"version":${CLI_JSON_VERSION},"command":"show","ok":true,"messages":[`)];
  let pending = parts[0]!.length;
  let first = true;
  // `write` may return a promise (stdout full: a pipe read slowly): the read waits for it, so
  // output never queues up in memory.
  const flush = () => {
    const chunk = Buffer.concat(parts, pending);
    parts = [];
    pending = 0;
    return write(chunk);
  };
  const push = (b: Buffer) => {
    parts.push(b);
    pending += b.length;
    return pending >= SHOW_STREAM_FLUSH_BYTES ? flush() : undefined;
  };
  // The store checks the session exists before anything is written.
  await store.getSession(id);
  await store.forEachMessage(id, (record, line) => {
    if (!first) {
      parts.push(COMMA);
      pending += COMMA.length;
    }
    first = false;
    return push(recordJsonOfLine(line, record.crc) ?? Buffer.from(JSON.stringify(record)));
  });
  const session = await store.getSession(id);
  parts.push(Buffer.from(`],"session":${JSON.stringify(session)},"damage":${JSON.stringify(session.damaged ?? [])},"notes":${JSON.stringify(session.notes ?? [])}}\n`));
  pending += parts.at(-1)!.length;
  await flush();
}

const COMMA = Buffer.from(',');
