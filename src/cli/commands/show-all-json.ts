import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { SessionStore } from '../../core/store/types.js';
import { recordJsonOfLine } from '../../core/store/line-crc.js';
import { CLI_JSON_VERSION } from '../output.js';
import { RecordJsonWriter } from '../record-json-writer.js';

/**
 * Output is handed to stdout in pieces of about this size: a pipe's capacity on Linux, so a reader
 * at the other end takes one piece while the next is made (see boundedWrite); few writes to a file.
 */
export const SHOW_STREAM_FLUSH_BYTES = 64 * 1024;
/**
 * Output queued on stdout before `show` waits for the reader. A pipe on Linux takes 64 KiB at a
 * time and Node queues the rest: waiting for 'drain' after every piece (write() returns false for
 * any piece over 16 KiB) made producer and reader take turns, and a 40 MB `show --all --json` into
 * a pipe took twice its CPU time in wall time. With a few MiB queued, the reader drains while the
 * next records are made; memory stays bounded by this plus one piece.
 */
export const SHOW_OUTPUT_QUEUE_BYTES = 4 * 1024 * 1024;

/**
 * A write function for writeAllMessagesJson that waits on `stream` only once SHOW_OUTPUT_QUEUE_BYTES
 * are queued. Bytes the pipe did not take at once are handed over by the event loop as the reader
 * makes room, so the producer yields a turn after such a write (one setImmediate a piece) rather
 * than computing the next records while the reader waits on an empty pipe.
 */
export function boundedWrite(stream: Writable, queueBytes = SHOW_OUTPUT_QUEUE_BYTES): (chunk: Buffer) => Promise<void> | undefined {
  // A reader that goes away (`| head`) fails the stream (EPIPE): the next write rejects with that
  // error instead of an unhandled 'error' event ending the process with a stack trace.
  let failed: Error | undefined;
  stream.on('error', (error: Error) => void (failed ??= error));
  return (chunk) => {
    if (failed) return Promise.reject(failed);
    stream.write(chunk);
    const queued = stream.writableLength;
    if (queued > queueBytes) return once(stream, 'drain').then(() => undefined);
    return queued > 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
  };
}

/**
 * `baton show <id> --all --json`, streamed: the same object as the buffered form (keys in another
 * order: `messages` comes first, since the session's damage is known only once they are read),
 * written as the log is read, so memory stays flat for a session of any size. A line checked by
 * its byte-CRC is neither parsed nor serialised again: record-keys.ts finds its id and seq, and its
 * JSON is spliced from the stored bytes (record-json-writer.ts). Earlier-format lines are parsed.
 */
export async function writeAllMessagesJson(store: SessionStore, id: string, write: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  // The store checks the session exists before anything is written.
  await store.getSession(id);
  const out = new RecordJsonWriter(SHOW_STREAM_FLUSH_BYTES, write);
  out.text(`{"version":${CLI_JSON_VERSION},"command":"show","ok":true,"messages":[`);
  let first = true;
  await store.forEachMessageLine(
    id,
    (keys, line) => {
      const comma = !first;
      first = false;
      if (keys.record === undefined) out.recordLine(line, comma);
      else {
        if (comma) out.bytes(COMMA);
        out.bytes(recordJsonOfLine(line, keys.record.crc) ?? Buffer.from(JSON.stringify(keys.record)));
      }
      return out.due();
    },
    (chunk) => out.chunk(chunk),
  );
  const session = await store.getSession(id);
  out.text(`],"session":${JSON.stringify(session)},"damage":${JSON.stringify(session.damaged ?? [])},"notes":${JSON.stringify(session.notes ?? [])}}\n`);
  await out.end();
}

const COMMA = Buffer.from(',');
