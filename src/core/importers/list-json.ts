import type { ListGroup } from './candidate-list.js';

/** The CLI's JSON envelope version (src/cli/output.ts CLI_JSON_VERSION; a test keeps them equal): the host renders `baton list --json` too. */
export const LIST_JSON_VERSION = 1;

/** Bytes gathered before one write: big enough to amortize writes, small enough to start printing at once. */
export const LIST_JSON_CHUNK_BYTES = 64 * 1024;

export interface JsonSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Writes `{ ...head, groups: [...], ...tail }` as one JSON object, group by group, honoring
 * backpressure: the first groups reach the reader while the rest are still being written, and
 * no 5 MB string is built. Each group is `{"cwd", "sessions", "newestAt"}`, as
 * JSON.stringify(groupSessions(...)) would print it; rows are copied as their stored JSON.
 */
export async function writeListJson(sink: JsonSink, head: Record<string, unknown>, groups: readonly ListGroup[], tail: Record<string, unknown>): Promise<void> {
  let buffer = `${JSON.stringify(head).slice(0, -1)}${Object.keys(head).length > 0 ? ',' : ''}"groups":[`;
  const flush = async () => {
    const chunk = buffer;
    buffer = '';
    if (!sink.write(chunk)) await new Promise<void>((done) => sink.once('drain', done));
  };
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    buffer += `${g > 0 ? ',' : ''}{"cwd":${JSON.stringify(group.cwd)},"sessions":[`;
    for (let i = 0; i < group.items.length; i++) {
      buffer += (i > 0 ? ',' : '') + group.items[i]!.text();
      if (buffer.length >= LIST_JSON_CHUNK_BYTES) await flush();
    }
    buffer += `],"newestAt":${JSON.stringify(group.newestAt)}}`;
  }
  const rest = JSON.stringify(tail);
  buffer += `]${rest.length > 2 ? `,${rest.slice(1)}` : '}'}\n`;
  await flush();
}
