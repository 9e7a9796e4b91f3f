import { sha256Hex } from '../hash.js';
import type { LogLine } from './lines.js';
import { settingString, type InstructionRef, type ModelSettings } from './model-settings.js';
import { isRecord, str } from './text.js';

/** The instruction blocks a rollout may carry; only their presence travels, as a hash. */
const META_INSTRUCTIONS = ['base_instructions'] as const;
const TURN_INSTRUCTIONS = ['user_instructions', 'developer_instructions'] as const;

function instructionText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  return isRecord(value) ? str(value.text) : undefined;
}

/**
 * Keeps the model configuration of a Codex rollout: `session_meta` (cli_version, base
 * instructions) and the last `turn_context` (model, reasoning effort and summary, personality,
 * user and developer instructions). Instructions are kept as sha256 and length, never as text.
 */
export class CodexModelScanner {
  private cliVersion: string | undefined;
  private meta: InstructionRef[] = [];
  private turn: Record<string, unknown> | null = null;
  private turnInstructions: InstructionRef[] = [];

  constructor(private readonly transcriptPath: string) {}

  feed(line: LogLine, lineNo: number): void {
    const v = line.value;
    if (line.broken || !isRecord(v) || !isRecord(v.payload)) return;
    const p = v.payload;
    if (v.type === 'session_meta') {
      this.cliVersion = settingString(p.cli_version) ?? this.cliVersion;
      this.meta = this.hashed(p, META_INSTRUCTIONS, lineNo);
    } else if (v.type === 'turn_context') {
      this.turn = p;
      this.turnInstructions = this.hashed(p, TURN_INSTRUCTIONS, lineNo);
    }
  }

  private hashed(p: Record<string, unknown>, keys: readonly string[], lineNo: number): InstructionRef[] {
    const out: InstructionRef[] = [];
    for (const key of keys) {
      const text = instructionText(p[key]);
      if (text !== undefined) out.push({ ref: `${this.transcriptPath}:${lineNo}#${key}`, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });
    }
    return out;
  }

  /** null when no turn_context names a model (nothing to carry). */
  result(): ModelSettings | null {
    const p = this.turn;
    const model = p ? settingString(p.model) : undefined;
    if (!p || !model) return null;
    const collab = isRecord(p.collaboration_mode) && isRecord(p.collaboration_mode.settings) ? p.collaboration_mode.settings : {};
    const out: ModelSettings = { sourceTool: 'codex', model, instructions: [...this.meta, ...this.turnInstructions], sources: [{ path: this.transcriptPath }] };
    const effort = settingString(p.effort) ?? settingString(collab.reasoning_effort);
    const summary = settingString(p.summary);
    const personality = settingString(p.personality);
    if (this.cliVersion) out.clientVersion = this.cliVersion;
    if (effort) out.reasoningEffort = effort;
    if (summary) out.reasoningSummary = summary;
    if (personality) out.personality = personality;
    return out;
  }
}
