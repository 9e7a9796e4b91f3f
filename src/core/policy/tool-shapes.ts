import { quoteWords } from './words.js';

/**
 * How each agent names its tools and where their commands and paths are: Claude Code (Bash, Edit,
 * Write, MultiEdit, NotebookEdit, Read, WebFetch…), Codex (`shell` with an argv array,
 * `exec_command`, `apply_patch`), Gemini CLI (`run_shell_command`, `write_file`, `replace`…) and
 * MCP (`mcp__server__tool` with `path`, `file_path`, `paths`…).
 */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'shell', 'exec', 'run_shell_command', 'local_shell', 'exec_command', 'container.exec', 'terminal', 'run_terminal_cmd', 'execute_command']);
export const WRITE_TOOLS: ReadonlySet<string> = new Set(['write', 'edit', 'multiedit', 'notebookedit', 'create_file', 'str_replace_editor', 'write_file', 'replace', 'edit_file', 'str_replace_based_edit_tool']);
export const READ_TOOLS: ReadonlySet<string> = new Set(['read', 'glob', 'grep', 'ls', 'todowrite', 'websearch', 'notebookread', 'task', 'read_file', 'read_many_files', 'list_directory', 'search_file_content', 'google_web_search', 'view_image', 'update_plan', 'todoread', 'exitplanmode', 'bashoutput', 'killshell', 'save_memory']);
export const FETCH_TOOLS: ReadonlySet<string> = new Set(['webfetch', 'web_fetch', 'fetch']);
export const PATCH_TOOLS: ReadonlySet<string> = new Set(['apply_patch', 'applypatch']);

/** Keys that hold one path, in the order agents use them. */
export const PATH_KEYS = ['file_path', 'notebook_path', 'absolute_path', 'path', 'filePath', 'filepath', 'file', 'target_file', 'source', 'destination', 'dest', 'target', 'directory', 'dir'] as const;
/** Keys that hold several paths. */
const PATHS_KEYS = ['paths', 'files', 'file_paths'] as const;

export interface ShellCommand {
  command: string;
  /** The working directory the tool names for this command (Codex `workdir`, Gemini `directory`). */
  workdir: string | null;
}

/** The command of a shell tool call; null when it is not a string (or an argv of strings). */
export function shellCommandOf(input: Record<string, unknown>): ShellCommand | null {
  const c = input.command ?? input.cmd;
  const workdir = typeof input.workdir === 'string' ? input.workdir : typeof input.directory === 'string' ? input.directory : typeof input.cwd === 'string' ? input.cwd : null;
  if (typeof c === 'string') return { command: c, workdir };
  if (Array.isArray(c) && c.length > 0 && c.every((x) => typeof x === 'string')) {
    // Codex sends argv arrays; ["bash","-lc","…"] is the common shape.
    return { command: quoteWords(c as string[]), workdir };
  }
  return null;
}

/** Every path a tool call names (one key or several), as written. */
export function pathsOf(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    const v = input[key];
    if (typeof v === 'string' && v.length > 0) out.push(v);
  }
  for (const key of PATHS_KEYS) {
    const v = input[key];
    if (Array.isArray(v)) for (const p of v) if (typeof p === 'string' && p.length > 0) out.push(p);
  }
  const edits = input.edits;
  if (Array.isArray(edits)) for (const e of edits) if (e && typeof e === 'object' && typeof (e as { file_path?: unknown }).file_path === 'string') out.push((e as { file_path: string }).file_path);
  return out;
}

export interface PatchTarget {
  op: 'add' | 'update' | 'delete' | 'move';
  path: string;
}

/** The files a Codex patch touches (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`). */
export function patchTargets(patch: string): PatchTarget[] {
  const out: PatchTarget[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$/.exec(line);
    if (!m) continue;
    const op = m[1] === 'Add File' ? 'add' : m[1] === 'Update File' ? 'update' : m[1] === 'Delete File' ? 'delete' : 'move';
    out.push({ op, path: m[2]! });
  }
  return out;
}

/** The patch text of an apply_patch call: `input`, `patch`, or a Codex shell argv ["apply_patch", "…"]. */
export function patchOf(tool: string, input: Record<string, unknown>): string | null {
  const lower = tool.toLowerCase();
  if (PATCH_TOOLS.has(lower)) {
    for (const key of ['input', 'patch', 'content']) if (typeof input[key] === 'string') return input[key] as string;
  }
  const c = input.command;
  if (Array.isArray(c) && c.length === 2 && (c[0] === 'apply_patch' || c[0] === 'applypatch') && typeof c[1] === 'string') return c[1];
  return null;
}

/** The URL of a fetch tool call (Claude `url`, Gemini `prompt` with URLs in it). */
export function urlsOf(input: Record<string, unknown>): string[] {
  if (typeof input.url === 'string') return [input.url];
  if (typeof input.prompt === 'string') return [...input.prompt.matchAll(/\bhttps?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
  return [];
}

/** Does the tool name say it only reads (`mcp__fs__read_file`, `get_…`, `list_…`)? */
export function looksReadOnly(tool: string): boolean {
  const last = tool.toLowerCase().split('__').at(-1) ?? '';
  return /^(read|get|list|search|find|view|show|describe|fetch|query|stat|head|tail|glob|grep|ls|cat|open|inspect|lookup|browse|directory_tree)(_|$)/.test(last);
}
