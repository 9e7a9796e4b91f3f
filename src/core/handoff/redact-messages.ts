import type { MessageInput } from '../../shared/message.js';
import { redactSecrets } from '../../shared/redact.js';

/** Deepest nesting of tool input that is walked for secrets (deeper values are kept as they are). */
const REDACT_MAX_DEPTH = 16;

/** Removes known secret shapes from every string a message carries, before it is written. */
export function redactMessages(messages: readonly MessageInput[]): { messages: MessageInput[]; found: Record<string, number> } {
  const found: Record<string, number> = {};
  const text = (value: string) => {
    const result = redactSecrets(value);
    for (const [kind, n] of Object.entries(result.found)) found[kind] = (found[kind] ?? 0) + n;
    return result.text;
  };
  const deep = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (depth >= REDACT_MAX_DEPTH || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => deep(v, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v, depth + 1)]));
  };
  const redacted = messages.map((message) => ({
    ...message,
    content: text(message.content),
    ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => deep(call, 0) as typeof call) } : {}),
  }));
  return { messages: redacted, found };
}
