import { z } from 'zod';

/** Limits on one message as it enters Baton (CLI input or an importer). */
export const MESSAGE_CONTENT_MAX_CHARS = 4 * 1024 * 1024;

export const MessageRole = z.enum(['user', 'assistant', 'tool', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;

/**
 * Where the untrimmed output of a tool lives when the message carries a trimmed form
 * (docs/context-transfer.md): a content-addressed artifact of the session.
 */
export const FullOutput = z.looseObject({
  ref: z.string().regex(/^artifacts\/[0-9a-f]{64}\.txt$/, 'expected artifacts/<sha256>.txt'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
});
export type FullOutput = z.infer<typeof FullOutput>;

export const ToolCall = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown().optional(),
  exitCode: z.number().int().nullable().optional(),
  /** Trimmed output; the full output, when kept, is an artifact referenced by hash. */
  output: z.string().optional(),
  fullOutput: FullOutput.optional(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/**
 * One message as a terminal assistant hands it to `baton handoff` (one JSON object a line).
 * Only role and content are required; unknown fields are kept.
 */
export const MessageInput = z.looseObject({
  role: MessageRole,
  content: z.string().max(MESSAGE_CONTENT_MAX_CHARS),
  id: z.string().min(1).max(256).optional(),
  createdAt: z.string().optional(),
  model: z.string().optional(),
  toolCalls: z.array(ToolCall).optional(),
  /** For role "tool": the tool call this message answers. */
  toolCallId: z.string().optional(),
  exitCode: z.number().int().nullable().optional(),
  /** For role "tool" whose content was trimmed: the full output. */
  fullOutput: FullOutput.optional(),
});
export type MessageInput = z.infer<typeof MessageInput>;

/** A message as stored in messages.jsonl: the input plus its position, id and checksum. */
export const MessageRecord = MessageInput.extend({
  seq: z.number().int().nonnegative(),
  id: z.string().min(1),
  createdAt: z.string(),
  crc: z.string(),
});
export type MessageRecord = z.infer<typeof MessageRecord>;
