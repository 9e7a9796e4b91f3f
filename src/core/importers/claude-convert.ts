import type { MessageInput, ToolCall } from '../../shared/message.js';
import { classifyClaudeUser, claudeModel, claudeResponseId, claudeText } from './claude-format.js';
import { IMPORTED_CONTENT_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS } from './limits.js';
import type { LogLine } from './lines.js';
import { isoOf, isRecord, str, trimText } from './text.js';
import type { ReadStats } from './types.js';
import type { ConvertSink, TranscriptConverter } from './convert-sink.js';

/** Session-level facts the conversion picks up besides messages. */
export interface ConvertedMeta {
  permissionMode: string | null;
  model: string | null;
}

/** Text of a tool_result's content: a string or text blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return claudeText(content);
}

/**
 * Claude Code does not log a process exit code as such: Bash results carry stdout/stderr, and a
 * failing command is a result with is_error true whose text starts "Exit code N". A number in
 * toolUseResult wins; then that text; then is_error → 1, else 0.
 */
export function claudeExitCode(block: Record<string, unknown>, toolUseResult: unknown, text: string): number {
  if (isRecord(toolUseResult)) {
    for (const key of ['exitCode', 'exit_code', 'returnCode']) {
      const value = toolUseResult[key];
      if (typeof value === 'number' && Number.isInteger(value)) return value;
    }
  }
  if (block.is_error === true) {
    const m = /Exit code (-?\d+)/.exec(text);
    return m?.[1] ? Number(m[1]) : 1;
  }
  return 0;
}

/** A message the converter may still change, with what leads to it. */
interface LiveResponse {
  message: MessageInput;
  texts: string[];
  /** The responses key (message.id or line id) of an assistant message. */
  key?: string;
}

/**
 * Converts Claude Code lines, in file order, into Baton messages: the lines of one API response
 * (same message.id) become one assistant message; tool_result blocks fill in the tool call they
 * answer (by tool_use id); compact_boundary becomes a system message keeping logicalParentUuid.
 * Messages go to a ConvertSink (convert-sink.ts), with every later change announced as a touch, so
 * the import can stream them (a message leaves once its last touch is applied).
 */
export class ClaudeConverter implements TranscriptConverter {
  readonly meta: ConvertedMeta = { permissionMode: null, model: null };
  /** Response key and tool_use id → message index: routing, kept for every message still reachable. */
  private readonly responses = new Map<string, number>();
  private readonly calls = new Map<string, number>();
  /** The objects of messages still held (none in the plan). */
  private readonly live = new Map<number, LiveResponse>();
  private readonly liveCalls = new Map<string, ToolCall>();
  private count = 0;

  constructor(
    private readonly stats: ReadStats,
    private readonly sink: ConvertSink,
  ) {}

  feed(line: LogLine, lineNo: number): boolean {
    const v = line.value;
    if (line.broken || !isRecord(v)) return false;
    const type = v.type;
    const id = str(v.uuid) ?? `line-${lineNo}`;
    const createdAt = isoOf(v.timestamp);
    if (type === 'system') {
      if (v.subtype !== 'compact_boundary') {
        this.stats.ignoredLines += 1;
        return false;
      }
      this.stats.compactions += 1;
      const meta = isRecord(v.compactMetadata) ? v.compactMetadata : {};
      const detail = [str(meta.trigger), typeof meta.preTokens === 'number' ? `${meta.preTokens} tokens before` : undefined].filter(Boolean).join(', ');
      this.add({
        role: 'system',
        content: `Conversation compacted${detail ? ` (${detail})` : ''}. Earlier messages were summarised by Claude Code.`,
        id,
        ...(createdAt ? { createdAt } : {}),
        ...(str(v.logicalParentUuid) ? { logicalParentUuid: str(v.logicalParentUuid) } : {}),
        compaction: true,
      });
      return true;
    }
    if (type !== 'user' && type !== 'assistant') {
      this.stats.ignoredLines += 1;
      return false;
    }
    if (v.isSidechain === true) {
      this.stats.sidechainLines += 1;
      return false;
    }
    if (type === 'user') return this.feedUser(v, id, createdAt);
    this.feedAssistant(v, id, createdAt);
    return true;
  }

  release(index: number): void {
    const live = this.live.get(index);
    if (!live) return;
    this.live.delete(index);
    if (live.key !== undefined && this.responses.get(live.key) === index) this.responses.delete(live.key);
    for (const call of live.message.toolCalls ?? []) {
      if (this.liveCalls.get(call.id) === call) this.liveCalls.delete(call.id);
      if (this.calls.get(call.id) === index) this.calls.delete(call.id);
    }
  }

  private add(message: MessageInput, live?: LiveResponse): number {
    const index = this.count++;
    if (this.sink.keepsMessages) this.live.set(index, live ?? { message, texts: [] });
    this.sink.add(message, index);
    return index;
  }

  /** False for a meta line (it changes only the session's permission mode, a first-read fact). */
  private feedUser(v: Record<string, unknown>, id: string, createdAt: string | undefined): boolean {
    this.meta.permissionMode = str(v.permissionMode) ?? this.meta.permissionMode;
    const content = isRecord(v.message) ? v.message.content : undefined;
    const kind = classifyClaudeUser(v);
    if (kind === 'meta') {
      this.stats.metaLines += 1;
      return false;
    }
    const at = createdAt ? { createdAt } : {};
    if (kind === 'prompt') {
      this.add({ role: 'user', content: trimText(claudeText(content), IMPORTED_CONTENT_MAX_CHARS), id, ...at });
      return true;
    }
    if (kind === 'compact-summary') {
      this.add({ role: 'system', content: trimText(claudeText(content), IMPORTED_CONTENT_MAX_CHARS), id, ...at, compactSummary: true });
      return true;
    }
    const blocks = Array.isArray(content) ? content : [];
    blocks.forEach((block, index) => {
      if (!isRecord(block) || block.type !== 'tool_result') return;
      const callId = str(block.tool_use_id) ?? '';
      const target = this.calls.get(callId);
      if (target !== undefined) {
        this.sink.touch(target);
        const call = this.liveCalls.get(callId);
        // The plan holds no calls: it only counts the touch (and skips the text).
        if (call) {
          const text = resultText(block.content);
          const exitCode = claudeExitCode(block, v.toolUseResult, text);
          call.output = trimText(text, TOOL_OUTPUT_MAX_CHARS);
          call.exitCode = exitCode;
        }
        return;
      }
      const text = resultText(block.content);
      const exitCode = claudeExitCode(block, v.toolUseResult, text);
      this.stats.danglingToolResults += 1;
      this.add({ role: 'tool', content: trimText(text, TOOL_OUTPUT_MAX_CHARS), id: index === 0 ? id : `${id}:${index}`, ...at, toolCallId: callId || undefined, exitCode });
    });
    return true;
  }

  private feedAssistant(v: Record<string, unknown>, id: string, createdAt: string | undefined): void {
    const model = claudeModel(v);
    this.meta.model = model ?? this.meta.model;
    const key = claudeResponseId(v) ?? id;
    let index = this.responses.get(key);
    let entry: LiveResponse | undefined;
    if (index === undefined) {
      const message: MessageInput = { role: 'assistant', content: '', id, ...(createdAt ? { createdAt } : {}), ...(model ? { model } : {}) };
      entry = { message, texts: [], key };
      index = this.add(message, entry);
      this.responses.set(key, index);
    } else {
      this.sink.touch(index);
      entry = this.live.get(index);
    }
    const content = isRecord(v.message) ? v.message.content : undefined;
    if (typeof content === 'string') entry?.texts.push(content);
    for (const block of Array.isArray(content) ? content : []) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') entry?.texts.push(block.text);
      else if (block.type === 'thinking' || block.type === 'redacted_thinking') this.stats.reasoningSkipped += 1;
      else if (block.type === 'tool_use') {
        const call: ToolCall = { id: str(block.id) ?? `${id}:tool`, name: str(block.name) ?? 'unknown', input: block.input };
        this.calls.set(call.id, index);
        if (entry && this.sink.keepsMessages) {
          this.liveCalls.set(call.id, call);
          (entry.message.toolCalls ??= []).push(call);
        }
        this.sink.call(index, call);
      }
    }
    if (entry && this.sink.keepsMessages) entry.message.content = trimText(entry.texts.map((t) => t.trim()).filter(Boolean).join('\n\n'), IMPORTED_CONTENT_MAX_CHARS);
  }
}
