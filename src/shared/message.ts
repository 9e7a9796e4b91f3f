import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';

/** Limits on one message as it enters Baton (CLI input or an importer). */
export const MESSAGE_CONTENT_MAX_CHARS = 4 * 1024 * 1024;
/** Longest message id accepted (code points). */
export const MESSAGE_ID_MAX_CHARS = 256;
/** A tool's full output as an artifact of the session, named by its sha256. */
export const ARTIFACT_TEXT_REF = /^artifacts\/[0-9a-f]{64}\.txt$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const MESSAGE_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export const MessageRole = builtOnFirstUse(() => z.enum(MESSAGE_ROLES));
export type MessageRole = z.infer<typeof MessageRole>;

/**
 * Where the untrimmed output of a tool lives when the message carries a trimmed form
 * (docs/context-transfer.md): a content-addressed artifact of the session.
 */
export const FullOutput = builtOnFirstUse(() => z.looseObject({
  ref: z.string().regex(ARTIFACT_TEXT_REF, 'expected artifacts/<sha256>.txt'),
  sha256: z.string().regex(SHA256_HEX),
  bytes: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
}));
export type FullOutput = z.infer<typeof FullOutput>;

export const ToolCall = builtOnFirstUse(() => z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown().optional(),
  exitCode: z.number().int().nullable().optional(),
  /** Trimmed output; the full output, when kept, is an artifact referenced by hash. */
  output: z.string().optional(),
  fullOutput: FullOutput.optional(),
}));
export type ToolCall = z.infer<typeof ToolCall>;

/**
 * One message as a terminal assistant hands it to `baton handoff` (one JSON object a line).
 * Only role and content are required; unknown fields are kept.
 */
export const MessageInput = builtOnFirstUse(() => z.looseObject({
  role: MessageRole,
  content: z.string().max(MESSAGE_CONTENT_MAX_CHARS),
  id: z.string().min(1).max(MESSAGE_ID_MAX_CHARS).optional(),
  createdAt: z.string().optional(),
  model: z.string().optional(),
  toolCalls: z.array(ToolCall).optional(),
  /** For role "tool": the tool call this message answers. */
  toolCallId: z.string().optional(),
  exitCode: z.number().int().nullable().optional(),
  /** For role "tool" whose content was trimmed: the full output. */
  fullOutput: FullOutput.optional(),
}));
export type MessageInput = z.infer<typeof MessageInput>;

/** A message as stored in messages.jsonl: the input plus its position, id and checksum. */
export const MessageRecord = builtOnFirstUse(() => MessageInput.extend({
  seq: z.number().int().nonnegative(),
  id: z.string().min(1),
  createdAt: z.string(),
  crc: z.string(),
}));
export type MessageRecord = z.infer<typeof MessageRecord>;
