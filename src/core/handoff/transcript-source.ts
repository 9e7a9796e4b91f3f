import type { MessageInput, ToolCall } from '../../shared/message.js';
import type { ConvertSink } from '../importers/convert-sink.js';
import { fromReadError } from '../importers/errors.js';
import { lineChunks, type LogLine } from '../importers/lines.js';
import { nodeImportReader, type ImportReader } from '../importers/reader.js';
import { newConverter, openTranscript, readTranscript, type ImportedFacts } from '../importers/read-session.js';
import { emptyReadStats, type AgentSource } from '../importers/types.js';
import { InputScanBuilder, type InputScan, type MessageSource } from './message-source.js';
import { MessageInputError } from './stream-message-input.js';

/**
 * Issue 20: an imported transcript streams into the landing like a --messages file, never held
 * as one message array. Two reads, one JSON.parse per line each:
 *
 * 1. the plan (`planTranscript`): the import's facts (title, cwd, model, permissions, tasks,
 *    fingerprint; stats without danglingParents, which would remember every uuid), the landing's
 *    scan (keyed secrets, repeated ids, count, depth), for each message how many later lines will
 *    change it (a Claude tool result, a continued response, a Codex call joining its group, an
 *    output, an exec_command_end), and one bit a line: whether it can change the conversion. No
 *    message is kept: 4 bytes a message, plus the converter's routing keys (response and call ids);
 * 2. the landing's read (`TranscriptPlan.source`, lines that cannot change the conversion are not
 *    parsed): the same converter, holding each message until
 *    its last change is applied and then letting it go, in order. A message waits for the ones
 *    before it, so a result that arrives far later holds the messages in between (as many as the
 *    whole-array conversion would hold, never more); a result that never arrives holds nothing,
 *    because the plan knows it will not come.
 *
 * The output is the whole-array conversion's, message for message (streaming-import.equivalence
 * .test.ts). A file that changed between the reads (size, mtime, or a message count or change
 * count that no longer matches the plan) is refused with nothing saved.
 */
export interface TranscriptPlan {
  facts: ImportedFacts;
  scan: InputScan;
  source: MessageSource;
  /** After the second read: the most messages held at once waiting for a later change (the memory the stream needs). */
  readonly heldPeak: number;
}

/** The first read of an import: facts, scan, and the changes each message will get. */
export async function planTranscript(source: AgentSource, pathOrId: string, env: NodeJS.ProcessEnv = process.env, reader: ImportReader = nodeImportReader): Promise<TranscriptPlan> {
  const plan = new PlanSink();
  const matters = new LineBits();
  const read = await readTranscript(source, pathOrId, env, { reader, countDanglingParents: false }, (stats) => {
    const converter = newConverter(source, stats, plan);
    // The lines that can change the conversion: the second read parses only those.
    return {
      meta: converter.meta,
      release: (index) => converter.release(index),
      feed(line, lineNo) {
        const changes = converter.feed(line, lineNo);
        if (changes) matters.set(lineNo);
        return changes;
      },
    };
  });
  const scan = plan.scan.result();
  const touches = plan.touches.subarray(0, scan.count);
  const { path } = read.facts;
  const stamp = `${read.size}:${read.mtimeMs}`;
  const held = { peak: 0 };
  return {
    facts: read.facts,
    scan,
    get heldPeak() {
      return held.peak;
    },
    source: {
      parts: () => releasedMessages(source, path, read.size, touches, matters, reader, held),
      async checkUnchanged() {
        const now = await reader.stat(path).catch((error: unknown) => {
          throw fromReadError(error, path);
        });
        if (`${now.size}:${now.mtimeMs}` !== stamp) throw changed(path);
      },
    },
  };
}

/** One bit a line (1-based numbers): 125 KB for a million lines. */
class LineBits {
  private bits = new Uint8Array(1024);

  set(n: number): void {
    while (n >> 3 >= this.bits.length) {
      const grown = new Uint8Array(this.bits.length * 2);
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[n >> 3]! |= 1 << (n & 7);
  }

  has(n: number): boolean {
    return n >> 3 < this.bits.length && (this.bits[n >> 3]! & (1 << (n & 7))) !== 0;
  }
}

/** The plan's sink: no message kept; the scan fed as messages and calls are made; touches counted. */
class PlanSink implements ConvertSink {
  readonly keepsMessages = false;
  readonly scan = new InputScanBuilder(true);
  touches: Uint32Array = new Uint32Array(1024);

  add(message: MessageInput, index: number): void {
    if (index >= this.touches.length) {
      const grown = new Uint32Array(this.touches.length * 2);
      grown.set(this.touches);
      this.touches = grown;
    }
    this.scan.add(message);
  }

  touch(index: number): void {
    this.touches[index]! += 1;
  }

  call(index: number, call: ToolCall): void {
    // Where the message has it: its keyed secrets and depth count as the finished message's.
    this.scan.extend(index, { toolCalls: [call] });
  }
}

/** The second read's sink: each message held until the plan's count of changes has arrived. */
class ReleaseQueue implements ConvertSink {
  readonly keepsMessages = true;
  /** Messages from `head` on, not yet let go. */
  private held: MessageInput[] = [];
  private first = 0;
  head = 0;
  private added = 0;

  constructor(
    private readonly remaining: Uint32Array,
    private readonly path: string,
  ) {}

  add(message: MessageInput, index: number): void {
    if (index !== this.added || index >= this.remaining.length) throw changed(this.path);
    this.added++;
    this.held.push(message);
  }

  touch(index: number): void {
    if (index < this.head || this.remaining[index] === 0) throw changed(this.path);
    this.remaining[index]! -= 1;
  }

  call(): void {}

  /** Lets go, in order, of the messages whose changes have all arrived; `forget` drops each from the converter. */
  drain(out: MessageInput[], forget: (index: number) => void): void {
    while (this.head < this.added && this.remaining[this.head] === 0) {
      out.push(this.held[this.first]!);
      this.held[this.first++] = undefined as never;
      forget(this.head++);
    }
    // Drop the let-go slots now and then, not on every message.
    if (this.first > 4096 && this.first * 2 > this.held.length) {
      this.held = this.held.slice(this.first);
      this.first = 0;
    }
  }

  get count(): number {
    return this.added;
  }
}

/** The second read: the converter again, its messages let go once final, a read chunk's worth per part. */
async function* releasedMessages(source: AgentSource, path: string, size: number, touches: Uint32Array, matters: LineBits, reader: ImportReader, held: { peak: number }): AsyncGenerator<MessageInput[]> {
  const queue = new ReleaseQueue(touches.slice(), path);
  const converter = newConverter(source, emptyReadStats(), queue);
  const forget = (index: number) => converter.release(index);
  const handle = await openTranscript(reader, path);
  try {
    let lineNo = 0;
    let out: MessageInput[] = [];
    const onLine = (line: LogLine) => {
      converter.feed(line, ++lineNo);
      held.peak = Math.max(held.peak, queue.count - queue.head);
      queue.drain(out, forget);
    };
    for await (const _ of lineChunks(handle, 0, size, onLine, (n) => matters.has(n))) {
      if (out.length === 0) continue;
      yield out;
      out = [];
    }
    if (out.length > 0) yield out;
  } catch (error) {
    throw error instanceof MessageInputError ? error : fromReadError(error, path);
  } finally {
    await handle.close();
  }
  if (queue.count !== touches.length || queue.head !== touches.length) throw changed(path);
}

function changed(path: string): MessageInputError {
  return new MessageInputError(`${path} changed while Baton was reading it; nothing was saved. Import it again once it is written.`);
}
