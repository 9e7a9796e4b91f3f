/**
 * What a file-writing tool call (Claude Code's Edit / MultiEdit / Write, and the same shapes from
 * other agents) would change, read from its input, plus a small line diff to show it. No editor
 * needed: this is for deciding, not for reviewing a whole file.
 */
export interface FileEdit {
  oldText: string;
  newText: string;
}

export interface FileChange {
  path: string | null;
  /** Write: the whole new content (no old side known). */
  kind: 'edit' | 'write';
  edits: FileEdit[];
}

export type DiffLine = { op: ' ' | '-' | '+'; text: string };

/** Past this many lines on one side, the diff is shown as "all removed, all added" (no LCS table). */
export const MAX_DIFF_LINES = 1_500;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function editOf(value: unknown): FileEdit | null {
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const oldText = text(record.old_string);
  const newText = text(record.new_string);
  return oldText !== null && newText !== null ? { oldText, newText } : null;
}

/** The change a tool input describes, or null when it is not a file write this view understands. */
export function fileChangeOf(input: Record<string, unknown>): FileChange | null {
  const path = text(input.file_path) ?? text(input.path) ?? text(input.notebook_path);
  if (Array.isArray(input.edits)) {
    const edits = input.edits.map(editOf).filter((edit): edit is FileEdit => edit !== null);
    if (edits.length > 0) return { path, kind: 'edit', edits };
  }
  const single = editOf(input);
  if (single !== null) return { path, kind: 'edit', edits: [single] };
  const content = text(input.content);
  if (content !== null) return { path, kind: 'write', edits: [{ oldText: '', newText: content }] };
  return null;
}

function splitLines(value: string): string[] {
  if (value.length === 0) return [];
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line diff (longest common subsequence), small inputs only; bigger ones fall back to replace-all. */
export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) {
    return [...a.map((line) => ({ op: '-' as const, text: line })), ...b.map((line) => ({ op: '+' as const, text: line }))];
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  while (i < a.length) out.push({ op: '-', text: a[i++]! });
  while (j < b.length) out.push({ op: '+', text: b[j++]! });
  return out;
}

/** The one-line summary of what a request would do: the command for a shell, the path for a file tool. */
export function requestSubject(tool: string, input: Record<string, unknown>): string {
  const command = text(input.command) ?? text(input.cmd);
  if (command !== null) return command;
  const path = text(input.file_path) ?? text(input.path) ?? text(input.notebook_path);
  if (path !== null) return path;
  const url = text(input.url) ?? text(input.pattern) ?? text(input.query);
  if (url !== null) return url;
  return tool;
}
