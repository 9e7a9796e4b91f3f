import type { MessageInput, ToolCall } from '../../shared/message.js';
import { classifyClaudeUser, claudeModel, claudeResponseId, claudeText } from './claude-format.js';
import { IMPORTED_CONTENT_MAX_CHARS, TOOL_OUTPUT_MAX_CHARS } from './limits.js';
import type { LogLine } from './lines.js';
import { isoOf, isRecord, str, trimText } from './text.js';
import type { ReadStats } from './types.js';

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

/**
 * Converts Claude Code lines, in file order, into Baton messages: the lines of one API response
 * (same message.id) become one assistant message; tool_result blocks fill in the tool call they
 * answer (by tool_use id); compact_boundary becomes a system message keeping logicalParentUuid.
 */
export class ClaudeConverter {
  readonly messages: MessageInput[] = [];
  readonly meta: ConvertedMeta = { permissionMode: null, model: null };
  private readonly responses = new Map<string, { message: MessageInput; texts: string[] }>();
  private readonly calls = new Map<string, ToolCall>();

  constructor(private readonly stats: ReadStats) {}

  feed(line: LogLine, lineNo: number): void {
    const v = line.value;
    if (line.broken || !isRecord(v)) return;
    const type = v.type;
    const id = str(v.uuid) ?? `line-${lineNo}`;
    const createdAt = isoOf(v.timestamp);
    if (type === 'system') {
      if (v.subtype !== 'compact_boundary') {
        this.stats.ignoredLines += 1;
        return;
      }
      this.stats.compactions += 1;
      const meta = isRecord(v.compactMetadata) ? v.compactMetadata : {};
      const detail = [str(meta.trigger), typeof meta.preTokens === 'number' ? `${meta.preTokens} tokens before` : undefined].filter(Boolean).join(', ');
      this.messages.push({
        role: 'system',
        content: `Conversation compacted${detail ? ` (${detail})` : ''}. Earlier messages were summarised by Claude Code.`,
        id,
        ...(createdAt ? { createdAt } : {}),
        ...(str(v.logicalParentUuid) ? { logicalParentUuid: str(v.logicalParentUuid) } : {}),
        compaction: true,
      });
      return;
    }
    if (type !== 'user' && type !== 'assistant') {
      this.stats.ignoredLines += 1;
      return;
    }
    if (v.isSidechain === true) {
      this.stats.sidechainLines += 1;
      return;
    }
    if (type === 'user') this.feedUser(v, id, createdAt);
    else this.feedAssistant(v, id, createdAt);
  }

  private feedUser(v: Record<string, unknown>, id: string, createdAt: string | undefined): void {
    this.meta.permissionMode = str(v.permissionMode) ?? this.meta.permissionMode;
    const content = isRecord(v.message) ? v.message.content : undefined;
    const kind = classifyClaudeUser(v);
    if (kind === 'meta') {
      this.stats.metaLines += 1;
      return;
    }
    const at = createdAt ? { createdAt } : {};
    if (kind === 'prompt') {
      this.messages.push({ role: 'user', content: trimText(claudeText(content), IMPORTED_CONTENT_MAX_CHARS), id, ...at });
      return;
    }
    if (kind === 'compact-summary') {
      this.messages.push({ role: 'system', content: trimText(claudeText(content), IMPORTED_CONTENT_MAX_CHARS), id, ...at, compactSummary: true });
      return;
    }
    const blocks = Array.isArray(content) ? content : [];
    blocks.forEach((block, index) => {
      if (!isRecord(block) || block.type !== 'tool_result') return;
      const callId = str(block.tool_use_id) ?? '';
      const text = resultText(block.content);
      const exitCode = claudeExitCode(block, v.toolUseResult, text);
      const output = trimText(text, TOOL_OUTPUT_MAX_CHARS);
      const call = this.calls.get(callId);
      if (call) {
        call.output = output;
        call.exitCode = exitCode;
        return;
      }
      this.stats.danglingToolResults += 1;
      this.messages.push({ role: 'tool', content: output, id: index === 0 ? id : `${id}:${index}`, ...at, toolCallId: callId || undefined, exitCode });
    });
  }

  private feedAssistant(v: Record<string, unknown>, id: string, createdAt: string | undefined): void {
    const model = claudeModel(v);
    this.meta.model = model ?? this.meta.model;
    const key = claudeResponseId(v) ?? id;
    let entry = this.responses.get(key);
    if (!entry) {
      const message: MessageInput = { role: 'assistant', content: '', id, ...(createdAt ? { createdAt } : {}), ...(model ? { model } : {}) };
      entry = { message, texts: [] };
      this.responses.set(key, entry);
      this.messages.push(message);
    }
    const content = isRecord(v.message) ? v.message.content : undefined;
    if (typeof content === 'string') entry.texts.push(content);
    for (const block of Array.isArray(content) ? content : []) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') entry.texts.push(block.text);
      else if (block.type === 'thinking' || block.type === 'redacted_thinking') this.stats.reasoningSkipped += 1;
      else if (block.type === 'tool_use') {
        const call: ToolCall = { id: str(block.id) ?? `${id}:tool`, name: str(block.name) ?? 'unknown', input: block.input };
        this.calls.set(call.id, call);
        (entry.message.toolCalls ??= []).push(call);
      }
    }
    entry.message.content = trimText(entry.texts.map((t) => t.trim()).filter(Boolean).join('\n\n'), IMPORTED_CONTENT_MAX_CHARS);
  }
}
