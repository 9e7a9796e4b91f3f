import { readSmallFile } from '../fs/read-small-file.js';
import { sha256Hex } from '../hash.js';

/**
 * The "model & config" dimension of a session (ARCHITECTURE.md §1) as Baton carries it: only the
 * keys named here, never a settings file whole (it may hold env values and tokens), and
 * instructions only by path and sha256, never their text.
 */
export interface ModelSettings {
  sourceTool: 'claude' | 'codex' | 'baton';
  /** The model the session last ran with (the last assistant message / turn_context). */
  model: string;
  clientVersion?: string;
  /** Claude Code settings.json `model` (the most specific file wins). */
  settingsModel?: string;
  /** Claude Code settings.json `outputStyle`. */
  outputStyle?: string;
  /** Codex turn_context `effort` / collaboration settings `reasoning_effort`. */
  reasoningEffort?: string;
  /** Codex turn_context `summary` (reasoning summary mode). */
  reasoningSummary?: string;
  personality?: string;
  /** Instruction files or blocks in force, by reference and hash only. */
  instructions: InstructionRef[];
  /** Where each setting was read; a file that could not be read is named with its error. */
  sources: Array<{ path: string; error?: string }>;
}

export interface InstructionRef {
  /** A file path (CLAUDE.md) or a line of the rollout naming the block (`<file>:<line>#user_instructions`). */
  ref: string;
  sha256: string;
  bytes: number;
}

/** An instructions file larger than this is not hashed; it is named in `sources` with the reason. */
export const INSTRUCTIONS_MAX_BYTES = 4 * 1024 * 1024;
/** A settings value longer than this is not a model name or style; it is not carried. */
export const SETTING_VALUE_MAX_CHARS = 200;

/** A short string setting, or undefined. */
export function settingString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= SETTING_VALUE_MAX_CHARS ? value : undefined;
}

/** The path and sha256 of an instructions file; null when it does not exist, an error when it cannot be hashed. */
export async function hashInstructionsFile(path: string): Promise<InstructionRef | { error: string } | null> {
  const file = await readSmallFile(path, INSTRUCTIONS_MAX_BYTES, 'not hashed');
  if (file === null || 'error' in file) return file;
  return { ref: path, sha256: sha256Hex(file.bytes), bytes: file.bytes.length };
}
