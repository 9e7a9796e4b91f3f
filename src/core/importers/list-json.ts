import type { ListGroup } from './candidate-list.js';

/** The CLI's JSON envelope version (src/cli/output.ts CLI_JSON_VERSION; a test keeps them equal): the host renders `baton list --json` too. */
export const LIST_JSON_VERSION = 1;

/** Bytes gathered before one write: big enough to amortize writes, small enough to start printing at once. */
export const LIST_JSON_CHUNK_BYTES = 64 * 1024;

/** A group's opening as `baton list --json` prints it (the candidate index pre-renders groups with the same text). */
export function groupOpenText(cwd: string): string {
  return `{"cwd":${JSON.stringify(cwd)},"sessions":[`;
}

/** A group's closing, after its last row. */
export function groupCloseText(newestAt: number): string {
  return `],"newestAt":${JSON.stringify(newestAt)}}`;
}

export interface JsonSink {
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** The sink copies each chunk before write() returns: the writer may reuse its chunk buffer (a stream keeps it: never set there). */
  copies?: boolean;
  /** Bytes given to write() and not yet written out (a Writable stream's count; a pipe's pending async write is in it until done). */
  readonly writableLength?: number;
}

/**
 * Whether the chunk just given to the sink may be filled again: the sink copied it, or has
 * written out all it was given. stdout to a file writes at once (and a pipe with room), so
 * writableLength is 0 when write() returns; a pipe's async write holds the very buffer until
 * its callback, and is counted in writableLength until then.
 */
function chunkIsFree(sink: JsonSink): boolean {
  return sink.copies === true || sink.writableLength === 0;
}

/**
 * Writes `{ ...head, groups: [...], ...tail }` as one JSON object, group by group, honoring
 * backpressure: the first groups reach the reader while the rest are still being written, and
 * no 5 MB string is built. Each group is `{"cwd", "sessions", "newestAt"}`, as
 * JSON.stringify(groupSessions(...)) would print it; rows are copied as their stored JSON.
 */
export async function writeListJson(sink: JsonSink, head: Record<string, unknown>, groups: readonly ListGroup[], tail: Record<string, unknown>): Promise<void> {
  // Rows read from the candidate index are copied as bytes into the chunk (copyRow): 20,000
  // decodes to strings and encodes back were a tenth of a warm listing.
  let chunk = Buffer.allocUnsafe(LIST_JSON_CHUNK_BYTES);
  let at = 0;
  const drained = () => new Promise<void>((done) => sink.once('drain', done));
  const flush = async () => {
    if (at === 0) return;
    const full = chunk.subarray(0, at);
    at = 0;
    if (!sink.write(full)) await drained();
    // A sink done with the chunk (the host's listing file, stdout to a file) gets it again:
    // 100,000 rows left 27 MB of spent chunks otherwise. One still writing it keeps it.
    if (!chunkIsFree(sink)) chunk = Buffer.allocUnsafe(LIST_JSON_CHUNK_BYTES);
  };
  const text = async (s: string) => {
    if (at + s.length * 3 > chunk.length) await flush();
    if (s.length * 3 > chunk.length) return void (sink.write(Buffer.from(s)) || (await drained()));
    at += chunk.write(s, at);
  };
  await text(`${JSON.stringify(head).slice(0, -1)}${Object.keys(head).length > 0 ? ',' : ''}"groups":[`);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    if (g > 0) await text(',');
    // A group stored pre-rendered (the candidate index) is copied whole.
    const rendered = group.rendered?.();
    if (rendered) {
      await flush();
      for (const part of rendered) if (!sink.write(part)) await drained();
      continue;
    }
    await text(groupOpenText(group.cwd));
    for (let i = 0; i < group.items.length; i++) {
      const item = group.items[i]!;
      if (i > 0) {
        if (at >= chunk.length) await flush();
        chunk[at++] = 0x2c; // ','
      }
      if (item.copyRow) {
        let next = item.copyRow(chunk, at);
        if (next < 0) {
          await flush();
          next = item.copyRow(chunk, at);
        }
        if (next >= 0) {
          at = next;
          continue;
        }
      }
      await text(item.text());
    }
    await text(groupCloseText(group.newestAt));
  }
  const rest = JSON.stringify(tail);
  await text(`]${rest.length > 2 ? `,${rest.slice(1)}` : '}'}\n`);
  await flush();
}
