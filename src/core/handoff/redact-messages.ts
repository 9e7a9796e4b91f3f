import type { MessageInput } from '../../shared/message.js';
import { redactValue, type RedactionCounts } from '../redact/redact-value.js';

/** What a new session carries from the conversation: all of it is redacted before the first write. */
export interface SessionContent {
  title: string;
  messages: MessageInput[];
  model?: { name: string; settings?: Record<string, unknown> } | null;
  permission?: { mode: string; rules: string[] } | null;
  /** Background tasks found in an imported log: their commands can carry secrets too. */
  tasks?: unknown[];
}

/**
 * Removes secrets from the title, every message (content, tool calls, unknown fields, at any
 * depth), the model/permission snapshot and imported tasks, in one detector pass. session.json, its revisions,
 * the index, handoff.json and handoffs.jsonl are all built from this result, so none of them
 * ever holds the original.
 */
export async function redactSessionContent<T extends SessionContent>(content: T): Promise<{ content: T; found: RedactionCounts }> {
  const { value, found } = await redactValue(content);
  return { content: value, found };
}
