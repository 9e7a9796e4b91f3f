/** Content longer than either limit starts collapsed, so one huge tool output does not bury the conversation. */
export const COLLAPSE_MAX_CHARS = 1_500;
export const COLLAPSE_MAX_LINES = 20;
/** How much of collapsed content stays visible. */
export const PREVIEW_LINES = 8;
export const PREVIEW_MAX_CHARS = 600;

export interface Collapsed {
  /** True when the content is long enough to start collapsed. */
  long: boolean;
  preview: string;
  lineCount: number;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

export function collapse(text: string): Collapsed {
  const lineCount = countLines(text);
  const long = text.length > COLLAPSE_MAX_CHARS || lineCount > COLLAPSE_MAX_LINES;
  if (!long) return { long, preview: text, lineCount };
  let preview = text.split('\n', PREVIEW_LINES).join('\n');
  if (preview.length > PREVIEW_MAX_CHARS) preview = preview.slice(0, PREVIEW_MAX_CHARS);
  return { long, preview: `${preview.trimEnd()}…`, lineCount };
}

/** A tool call's input on one line: `{"command":"npm test"}` → `command: npm test`. */
export function summarizeInput(input: unknown, maxChars = 160): string {
  if (input === undefined || input === null) return '';
  let text: string;
  if (typeof input === 'string') text = input;
  else if (typeof input === 'object' && !Array.isArray(input)) {
    text = Object.entries(input as Record<string, unknown>)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : safeJson(value)}`)
      .join(', ');
  } else text = safeJson(input);
  // Only the start can be shown; do not fold white space across megabytes of input.
  if (text.length > maxChars * 8) text = text.slice(0, maxChars * 8);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
