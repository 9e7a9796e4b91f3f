import type { MessageInput, ToolCall } from '../../shared/message.js';
import { CODEX_CALL_TYPES, CODEX_IGNORED_ITEMS, CODEX_OUTPUT_TYPES, codexOutput, codexPermissionMode, codexText, isInstructionText } from './codex-format.js';
import type { ConvertedMeta } from './claude-convert.js';
import { IMPORTED_CONTENT_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS } from './limits.js';
import type { LogLine } from './lines.js';
import { isoOf, isRecord, str, trimText } from './text.js';
import type { ReadStats } from './types.js';
import type { ConvertSink, TranscriptConverter } from './convert-sink.js';

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
 * Messages go to a ConvertSink (convert-sink.ts), every later change announced as a touch.
 */
export class CodexConverter implements TranscriptConverter {
  readonly meta: ConvertedMeta = { permissionMode: null, model: null };
  /** call_id → message index: routing, kept for every message still reachable. */
  private readonly calls = new Map<string, number>();
  /** The objects of messages still held (none in the plan). */
  private readonly live = new Map<number, MessageInput>();
  private readonly liveCalls = new Map<string, ToolCall>();
  /** The assistant message collecting the current run of calls. */
  private group: number | null = null;
  private count = 0;

  constructor(
    private readonly stats: ReadStats,
    private readonly sink: ConvertSink,
  ) {}

  feed(line: LogLine, lineNo: number): boolean {
    const v = line.value;
    if (line.broken || !isRecord(v)) return false;
    const p = isRecord(v.payload) ? v.payload : {};
    const id = `line-${lineNo}`;
    const at = isoOf(v.timestamp) ? { createdAt: isoOf(v.timestamp) } : {};
    switch (v.type) {
      case 'session_meta':
        return false;
      case 'turn_context':
        // The model goes on the messages that follow: this line matters to the second read too.
        this.meta.model = str(p.model) ?? this.meta.model;
        this.meta.permissionMode = codexPermissionMode(p) ?? this.meta.permissionMode;
        return true;
      case 'compacted': {
        this.stats.compactions += 1;
        const summary = str(p.message);
        this.add({ role: 'system', content: trimText(`Conversation compacted by Codex.${summary ? `\n\n${summary}` : ''}`, IMPORTED_CONTENT_MAX_CHARS), id, ...at, compaction: true });
        this.group = null;
        return true;
      }
      case 'event_msg': {
        let touched = false;
        if (p.type === 'exec_command_end') {
          const callId = str(p.call_id) ?? '';
          const target = this.calls.get(callId);
          if (target !== undefined) {
            touched = true;
            this.sink.touch(target);
            const call = this.liveCalls.get(callId);
            if (call && (call.exitCode === undefined || call.exitCode === null) && typeof p.exit_code === 'number') call.exitCode = p.exit_code;
          }
        }
        this.stats.ignoredLines += 1;
        return touched;
      }
      case 'response_item':
        return this.feedItem(p, id, at);
      default:
        return false;
    }
  }

  release(index: number): void {
    const message = this.live.get(index);
    if (!message) return;
    this.live.delete(index);
    for (const call of message.toolCalls ?? []) {
      if (this.liveCalls.get(call.id) === call) this.liveCalls.delete(call.id);
      if (this.calls.get(call.id) === index) this.calls.delete(call.id);
    }
  }

  private add(message: MessageInput): number {
    const index = this.count++;
    if (this.sink.keepsMessages) this.live.set(index, message);
    this.sink.add(message, index);
    return index;
  }

  /** False for reasoning and ignored items (they leave the running group as it is). */
  private feedItem(p: Record<string, unknown>, id: string, at: { createdAt?: string }): boolean {
    const item = typeof p.type === 'string' ? p.type : '';
    if (item === 'message') {
      this.group = null;
      const text = codexText(p.content);
      if (p.role === 'user' && !isInstructionText(text)) this.add({ role: 'user', content: trimText(text, IMPORTED_CONTENT_MAX_CHARS), id, ...at });
      else if (p.role === 'assistant') this.add({ role: 'assistant', content: trimText(text, IMPORTED_CONTENT_MAX_CHARS), id, ...at, ...this.modelField() });
      else this.stats.metaLines += 1;
      return true;
    }
    if (CODEX_CALL_TYPES.has(item)) {
      const callId = str(p.call_id) ?? str(p.id) ?? id;
      const input = item === 'function_call' ? parseArguments(p.arguments) : item === 'custom_tool_call' ? p.input : p.action;
      const call: ToolCall = { id: callId, name: str(p.name) ?? (item === 'local_shell_call' ? 'local_shell' : 'unknown'), input };
      if (this.group === null) this.group = this.add({ role: 'assistant', content: '', id, ...at, ...this.modelField(), toolCalls: [] });
      else this.sink.touch(this.group);
      this.calls.set(callId, this.group);
      const group = this.live.get(this.group);
      if (group) {
        this.liveCalls.set(callId, call);
        group.toolCalls!.push(call);
      }
      this.sink.call(this.group, call);
      return true;
    }
    if (CODEX_OUTPUT_TYPES.has(item)) {
      const callId = str(p.call_id) ?? '';
      const target = this.calls.get(callId);
      if (target !== undefined) {
        this.sink.touch(target);
        const call = this.liveCalls.get(callId);
        // The plan holds no calls: it only counts the touch (and skips reading the output).
        if (call) {
          const { text, exitCode } = codexOutput(p.output);
          call.output = trimText(text, TOOL_OUTPUT_MAX_CHARS);
          if (exitCode !== null) call.exitCode = exitCode;
        }
        return true;
      }
      const { text, exitCode } = codexOutput(p.output);
      this.stats.danglingToolResults += 1;
      this.add({ role: 'tool', content: trimText(text, TOOL_OUTPUT_MAX_CHARS), id, ...at, toolCallId: callId || undefined, exitCode });
      return true;
    }
    if (item === 'reasoning') this.stats.reasoningSkipped += 1;
    else if (CODEX_IGNORED_ITEMS.has(item)) this.stats.ignoredLines += 1;
    return false;
  }

  private modelField(): { model?: string } {
    return this.meta.model ? { model: this.meta.model } : {};
  }
}
