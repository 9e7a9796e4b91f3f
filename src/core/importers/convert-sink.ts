import type { MessageInput, ToolCall } from '../../shared/message.js';
import type { LogLine } from './lines.js';

/**
 * Where a converter (claude-convert.ts, codex-convert.ts) puts what it makes of a transcript,
 * line by line. Messages are numbered in the order they are added, which is the output order; a
 * later line can still change an earlier message (a Claude tool result fills in the call it
 * answers, a continued response adds text and calls, a Codex call joins the running group, an
 * output or exec_command_end fills in its call). The sink hears each of those as a touch.
 *
 * Three sinks: the whole array (readAgentSession), the plan (the import's first read: counts the
 * touches each message will get, keeps no message), and the release queue (the second read: holds
 * a message until its last touch, then lets it go, in order).
 */
export interface ConvertSink {
  /** Whether the converter keeps message objects to change them later (false: the plan). */
  readonly keepsMessages: boolean;
  /** A new message, numbered `index` (0, 1, 2, … in the order added). */
  add(message: MessageInput, index: number): void;
  /** A later line is changing message `index`. */
  touch(index: number): void;
  /** A tool call was added to message `index` (at its creation or later). */
  call(index: number, call: ToolCall): void;
}

/** What read-session.ts and the import's two reads need of either converter. */
export interface TranscriptConverter {
  readonly meta: { permissionMode: string | null; model: string | null };
  /**
   * Converts one line. False when the line cannot change what the converter makes (ignored types,
   * sidechains, meta lines, reasoning, events that name no known call): the import's second read
   * does not even parse those lines. Session-level facts (`meta`) are taken from the first read only.
   */
  feed(line: LogLine, lineNo: number): boolean;
  /** Message `index` will not be touched again: forget it and every key that leads to it. */
  release(index: number): void;
}

/** Every message in one array: the whole-array conversion (previews, agent-log sync). */
export class ArraySink implements ConvertSink {
  readonly keepsMessages = true;
  readonly messages: MessageInput[] = [];

  add(message: MessageInput): void {
    this.messages.push(message);
  }

  touch(): void {}

  call(): void {}
}
