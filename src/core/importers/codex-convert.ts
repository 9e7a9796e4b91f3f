import type { MessageInput, ToolCall } from '../../shared/message.js';
import { CODEX_CALL_TYPES, CODEX_IGNORED_ITEMS, CODEX_OUTPUT_TYPES, codexOutput, codexPermissionMode, codexText, isInstructionText } from './codex-format.js';
import type { ConvertedMeta } from './claude-convert.js';
import { IMPORTED_CONTENT_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS } from './limits.js';
import type { LogLine } from './lines.js';
import { isoOf, isRecord, str, trimText } from './text.js';
import type { ReadStats } from './types.js';

/** function_call arguments are a JSON string; keep the parsed value when it parses. */
function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * Converts Codex rollout lines, in file order: response_item messages become user / assistant
 * messages (environment and instruction blocks skipped), a run of tool calls with no message
 * between them becomes one assistant message carrying them, outputs pair by call_id (exit code
 * from the output's metadata, else from exec_command_end), compacted becomes a system message.
 */
export class CodexConverter {
  readonly messages: MessageInput[] = [];
  readonly meta: ConvertedMeta = { permissionMode: null, model: null };
  private readonly calls = new Map<string, ToolCall>();
  private group: MessageInput | null = null;

  constructor(private readonly stats: ReadStats) {}

  feed(line: LogLine, lineNo: number): void {
    const v = line.value;
    if (line.broken || !isRecord(v)) return;
    const p = isRecord(v.payload) ? v.payload : {};
    const id = `line-${lineNo}`;
    const at = isoOf(v.timestamp) ? { createdAt: isoOf(v.timestamp) } : {};
    switch (v.type) {
      case 'session_meta':
        return;
      case 'turn_context':
        this.meta.model = str(p.model) ?? this.meta.model;
        this.meta.permissionMode = codexPermissionMode(p) ?? this.meta.permissionMode;
        return;
      case 'compacted': {
        this.stats.compactions += 1;
        const summary = str(p.message);
        this.messages.push({ role: 'system', content: trimText(`Conversation compacted by Codex.${summary ? `\n\n${summary}` : ''}`, IMPORTED_CONTENT_MAX_CHARS), id, ...at, compaction: true });
        this.group = null;
        return;
      }
      case 'event_msg':
        if (p.type === 'exec_command_end') {
          const call = this.calls.get(str(p.call_id) ?? '');
          if (call && (call.exitCode === undefined || call.exitCode === null) && typeof p.exit_code === 'number') call.exitCode = p.exit_code;
        }
        this.stats.ignoredLines += 1;
        return;
      case 'response_item':
        this.feedItem(p, id, at);
        return;
      default:
        return;
    }
  }

  private feedItem(p: Record<string, unknown>, id: string, at: { createdAt?: string }): void {
    const item = typeof p.type === 'string' ? p.type : '';
    if (item === 'message') {
      this.group = null;
      const text = codexText(p.content);
      if (p.role === 'user' && !isInstructionText(text)) this.messages.push({ role: 'user', content: trimText(text, IMPORTED_CONTENT_MAX_CHARS), id, ...at });
      else if (p.role === 'assistant') this.messages.push({ role: 'assistant', content: trimText(text, IMPORTED_CONTENT_MAX_CHARS), id, ...at, ...this.modelField() });
      else this.stats.metaLines += 1;
      return;
    }
    if (CODEX_CALL_TYPES.has(item)) {
      const callId = str(p.call_id) ?? str(p.id) ?? id;
      const input = item === 'function_call' ? parseArguments(p.arguments) : item === 'custom_tool_call' ? p.input : p.action;
      const call: ToolCall = { id: callId, name: str(p.name) ?? (item === 'local_shell_call' ? 'local_shell' : 'unknown'), input };
      this.calls.set(callId, call);
      if (!this.group) {
        this.group = { role: 'assistant', content: '', id, ...at, ...this.modelField(), toolCalls: [] };
        this.messages.push(this.group);
      }
      this.group.toolCalls!.push(call);
      return;
    }
    if (CODEX_OUTPUT_TYPES.has(item)) {
      const callId = str(p.call_id) ?? '';
      const { text, exitCode } = codexOutput(p.output);
      const output = trimText(text, TOOL_OUTPUT_MAX_CHARS);
      const call = this.calls.get(callId);
      if (call) {
        call.output = output;
        if (exitCode !== null) call.exitCode = exitCode;
        return;
      }
      this.stats.danglingToolResults += 1;
      this.messages.push({ role: 'tool', content: output, id, ...at, toolCallId: callId || undefined, exitCode });
      return;
    }
    if (item === 'reasoning') this.stats.reasoningSkipped += 1;
    else if (CODEX_IGNORED_ITEMS.has(item)) this.stats.ignoredLines += 1;
  }

  private modelField(): { model?: string } {
    return this.meta.model ? { model: this.meta.model } : {};
  }
}
