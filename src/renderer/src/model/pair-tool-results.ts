import type { MessageRecord } from '../../../shared/message';

/** A tool call's result, whether it came inline on the call or as a later `tool` message. */
export interface ToolResult {
  output: string;
  exitCode: number | null | undefined;
  fullOutput: MessageRecord['fullOutput'];
}

export interface PairedMessages {
  /** Messages to show, in order: `tool` messages that answer a shown call are left out. */
  shown: MessageRecord[];
  /** Results of the tool calls of `shown`, by tool call id (for calls answered by a `tool` message). */
  results: Map<string, ToolResult>;
}

/**
 * Folds each `tool` message into the card of the call it answers, so a result is shown once.
 * A result whose call is not among `messages` (an older page not loaded yet) stays a message.
 */
export function pairToolResults(messages: readonly MessageRecord[]): PairedMessages {
  const callIds = new Set<string>();
  for (const message of messages) for (const call of message.toolCalls ?? []) callIds.add(call.id);
  const results = new Map<string, ToolResult>();
  const shown: MessageRecord[] = [];
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId !== undefined && callIds.has(message.toolCallId) && !results.has(message.toolCallId)) {
      results.set(message.toolCallId, { output: message.content, exitCode: message.exitCode, fullOutput: message.fullOutput });
    } else shown.push(message);
  }
  return { shown, results };
}
