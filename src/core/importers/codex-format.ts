import { isRecord, str } from './text.js';

/**
 * Knowledge of Codex CLI rollout lines (docs/importer-codex.md), shared by the scan digest and
 * the full conversion.
 */

export const CODEX_TOP_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** response_item payload types that are tool calls, and the ones that answer them. */
export const CODEX_CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
export const CODEX_OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
/** response_item payload types kept out of the conversation on purpose. */
export const CODEX_IGNORED_ITEMS = new Set(['reasoning', 'web_search_call', 'ghost_snapshot', 'compaction']);

/** User-role messages Codex writes itself: environment and instruction blocks, not prompts. */
const INSTRUCTION_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '<INSTRUCTIONS>',
  '# AGENTS.md instructions',
  '<permissions instructions>',
  '<user_shell_command>',
  '<turn_aborted>',
];

export function codexText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string' && (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text')) parts.push(part.text);
    else if (part.type === 'input_image') parts.push('[image]');
  }
  return parts.join('\n');
}

export function isInstructionText(text: string): boolean {
  const t = text.trimStart();
  return t.length === 0 || INSTRUCTION_PREFIXES.some((p) => t.startsWith(p));
}

/** `approval/sandbox`, e.g. "on-request/workspace-write"; sandbox_policy is a string or {type|mode}. */
export function codexPermissionMode(payload: Record<string, unknown>): string | undefined {
  const approval = str(payload.approval_policy);
  const sp = payload.sandbox_policy;
  const sandbox = typeof sp === 'string' ? sp : isRecord(sp) ? (str(sp.type) ?? str(sp.mode)) : undefined;
  if (!approval && !sandbox) return undefined;
  return `${approval ?? 'unknown'}/${sandbox ?? 'unknown'}`;
}

/** rollout-2025-01-02T03-04-05-<uuid>.jsonl → <uuid>. */
export function codexIdFromFile(name: string): string {
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i.exec(name);
  return m?.[1] ?? name.replace(/\.jsonl(?:\.zst)?$/, '');
}

/**
 * Exit code and text of a function_call_output: older Codex wrote a JSON string
 * {"output", "metadata": {"exit_code"}}; newer ones write text starting "Exit code: N" or
 * containing "Process exited with code N".
 */
export function codexOutput(raw: unknown): { text: string; exitCode: number | null } {
  let text = typeof raw === 'string' ? raw : isRecord(raw) && typeof raw.content === 'string' ? raw.content : raw === undefined ? '' : JSON.stringify(raw);
  let exitCode: number | null = null;
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) {
        if (typeof parsed.output === 'string') text = parsed.output;
        const meta = parsed.metadata;
        if (isRecord(meta) && typeof meta.exit_code === 'number') exitCode = meta.exit_code;
      }
    } catch {
      // Plain text that happens to start with "{".
    }
  }
  if (exitCode === null) {
    const m = /^Exit code: (-?\d+)/m.exec(text) ?? /Process exited with code (-?\d+)/.exec(text);
    if (m?.[1]) exitCode = Number(m[1]);
  }
  return { text, exitCode };
}
