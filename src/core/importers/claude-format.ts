import { isRecord, str } from './text.js';

/**
 * Knowledge of Claude Code's session lines (docs/importer-claude-code.md), shared by the scan
 * digest and the full conversion so both count and title a session the same way.
 */

/** Line types that carry nothing Baton keeps; anything else not handled is "unknown". */
export const CLAUDE_IGNORED_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'custom-title',
  'agent-name',
  'last-prompt',
  'tag',
  'attachment',
  'pr-link',
]);

/** User lines Claude Code writes itself (slash commands, their output, caveats, interruptions). */
const META_PREFIXES = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  'Caveat: The messages below were generated',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
  '<system-reminder>',
  '<user-prompt-submit-hook>',
  '[Request interrupted by user',
];

export type ClaudeUserKind = 'prompt' | 'tool-results' | 'meta' | 'compact-summary';

/** Text of a message content: a string, or the text blocks of a block array joined. */
export function claudeText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

export function isMetaText(text: string): boolean {
  const t = text.trimStart();
  return META_PREFIXES.some((p) => t.startsWith(p));
}

export function classifyClaudeUser(line: Record<string, unknown>): ClaudeUserKind {
  if (line.isCompactSummary === true) return 'compact-summary';
  if (line.isMeta === true) return 'meta';
  const message = isRecord(line.message) ? line.message : {};
  const content = message.content;
  if (Array.isArray(content) && content.some((b) => isRecord(b) && b.type === 'tool_result')) return 'tool-results';
  const text = claudeText(content);
  if (text.trim().length === 0 || isMetaText(text)) return 'meta';
  return 'prompt';
}

/** The API response id that groups the lines of one assistant response. */
export function claudeResponseId(line: Record<string, unknown>): string | undefined {
  return isRecord(line.message) ? str(line.message.id) : undefined;
}

/** The model of an assistant line; Claude Code writes "<synthetic>" for its own notices. */
export function claudeModel(line: Record<string, unknown>): string | undefined {
  const model = isRecord(line.message) ? str(line.message.model) : undefined;
  return model && model !== '<synthetic>' ? model : undefined;
}

/** Claude Code names files <session-id>.jsonl; sub-agent logs are agent-<id>.jsonl. */
export function claudeIdFromFile(name: string): string {
  return name.replace(/\.jsonl$/, '');
}
