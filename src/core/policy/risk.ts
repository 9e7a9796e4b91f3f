import { homedir } from 'node:os';
import type { RiskAssessment } from '../../shared/approvals.js';
import { DESTRUCTIVE_SQL } from './families.js';
import { Findings, LEVEL_ORDER, maxLevel } from './findings.js';
import { isAbsolutePath, isInside, normalizeAbsolute, resolvePath } from './paths.js';
import { MAX_TARGETS_PER_COMMAND } from './path-rules.js';
import { analyseShell, type ShellScope } from './shell-rules.js';
import { isSecretPath, realpathLongest, resolvingRemotePaths, targetsOf, type PathContext } from './targets.js';
import { FETCH_TOOLS, looksReadOnly, patchOf, patchTargets, pathsOf, READ_TOOLS, SHELL_TOOLS, shellCommandOf, urlsOf, WRITE_TOOLS } from './tool-shapes.js';

/**
 * The risk policy: rules over a tool call, each with a stable name and a sentence for the person
 * deciding. High risk means the UI asks for a second, deliberate confirmation. Shell commands are
 * read with a real bash grammar (tree-sitter-bash, see parser.ts); nothing is run or expanded.
 * Posture: unknown means ask loudly. A target we cannot know (`$VAR`) counts as outside the
 * workspace; a command word we cannot know counts as the worst command.
 *
 * `git push --force-with-lease` is high risk like `--force`: it still rewrites the remote's
 * history, and its lease is checked against the local remote-tracking ref, which any background
 * `git fetch` (editors do this) silently updates, so the protection is weaker than it looks.
 */
export interface RiskContext {
  cwd: string;
  /** Writes and recursive deletes outside this root are high risk (see workspace-root.ts). */
  workspaceRoot: string;
  /** For `~` and `$HOME`; when unknown they are simply "outside the workspace". */
  home?: string;
  /** Scratch dirs where a write outside the workspace is only medium risk. */
  tempDirs?: readonly string[];
}

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

export const DEFAULT_TEMP_DIRS: readonly string[] = ['/tmp', '/var/tmp'];
export { MAX_COMMAND_CHARS, MAX_SHELL_NESTING } from './shell-rules.js';

/**
 * The context's own directories (root, cwd, temp dirs, home) are resolved once per
 * CONTEXT_REALPATH_TTL_MS: every call of a session names the same ones. File targets never are.
 */
export const CONTEXT_REALPATH_TTL_MS = 1_000;
const MAX_CONTEXT_REALPATHS = 256;
const contextRealpaths = new Map<string, { real: string; at: number }>();

function contextRealpath(p: string): string {
  // A remote box's paths are not this machine's: neither cached with them nor read from them.
  if (resolvingRemotePaths()) return realpathLongest(normalizeAbsolute(p));
  const now = Date.now();
  const hit = contextRealpaths.get(p);
  if (hit && now - hit.at < CONTEXT_REALPATH_TTL_MS) return hit.real;
  const real = realpathLongest(normalizeAbsolute(p));
  if (contextRealpaths.size >= MAX_CONTEXT_REALPATHS) contextRealpaths.clear();
  contextRealpaths.set(p, { real, at: now });
  return real;
}

function pathContext(ctx: RiskContext, cwd: string): PathContext {
  return { cwd: contextRealpath(cwd), root: contextRealpath(ctx.workspaceRoot), ...(ctx.home ? { home: ctx.home } : {}), tempDirs: (ctx.tempDirs ?? DEFAULT_TEMP_DIRS).map(contextRealpath) };
}

/** The root is `/` or the home directory (or above it): "inside the workspace" protects nothing. */
export function isBroadRoot(root: string, home: string | undefined): boolean {
  const r = normalizeAbsolute(root);
  if (r === '/') return true;
  const h = home ?? homedir();
  return isInside(h, r) || isInside(contextRealpath(h), contextRealpath(r));
}

function checkPath(path: string, what: string, write: boolean, pc: PathContext, f: Findings): void {
  for (const t of targetsOf({ value: path, dynamic: false }, pc)) {
    if (!write) {
      if (isSecretPath(t.path) || isSecretPath(path)) f.add('medium', 'reads-secret', `${what} reads ${t.path}, which holds secrets`);
      continue;
    }
    if (t.place === 'temp') f.add('medium', 'write-to-temp', `${what} writes to ${t.path}, outside the workspace (a temp dir)`);
    else if (t.place === 'unknown') f.add('high', 'write-outside-workspace', `${what} writes to "${t.path}", which Baton cannot place; it may be outside the workspace ${pc.root}`);
    else if (t.place !== 'inside' && t.place !== 'root') f.add('high', 'write-outside-workspace', `${what} writes to ${t.path}, outside the workspace ${pc.root}`);
    if (t.sensitive) f.add('high', 'sensitive-path', `${what} writes to ${t.path}: ${t.sensitive}`);
    else if (t.place === 'inside' && /\/\.git\//.test(t.path)) f.add('medium', 'git-internals', `${what} changes git's own files (${t.path})`);
  }
}

function checkFetch(tool: string, input: Record<string, unknown>, f: Findings): void {
  const urls = urlsOf(input);
  if (urls.length === 0) {
    f.add('medium', 'unreadable-url', `the ${tool} call names no URL to check`);
    return;
  }
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      f.add('medium', 'unreadable-url', `${tool} names "${raw.slice(0, 80)}", which is not a URL`);
      continue;
    }
    const host = url.hostname;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') f.add('high', 'fetch-scheme', `${tool} fetches a ${url.protocol} URL`);
    else if (/^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.0\.0\.0|\[?::1\]?$|metadata\.google\.internal)/.test(host)) f.add('medium', 'fetch-private-network', `${tool} fetches ${host}, an address on this machine or its private network`);
    else if (url.search.length > 256) f.add('medium', 'fetch-long-query', `${tool} sends a ${url.search.length}-character query to ${host}; data can leave this way`);
  }
}

/** The risk of one tool call, with every reason found (highest first). Synchronous after `initPolicy()`. */
export function assessRisk(call: ToolCall, ctx: RiskContext): RiskAssessment {
  const f = new Findings();
  const tool = call.tool.toLowerCase();
  const shell = shellCommandOf(call.input);
  const patch = patchOf(call.tool, call.input);
  // Codex `workdir` and Gemini `directory` (relative to the agent's cwd) say where the command runs.
  const cwd = shell?.workdir ? resolvePath(ctx.cwd, shell.workdir) : ctx.cwd;
  const pc = pathContext(ctx, cwd);
  const broadRoot = isBroadRoot(pc.root, ctx.home);
  if (broadRoot) f.add('medium', 'broad-workspace-root', `the workspace root is ${pc.root}, ${pc.root === '/' ? 'the whole disk' : 'your home directory or above it'}: "inside the workspace" protects nothing there`);

  if (patch !== null) {
    const targets = patchTargets(patch);
    if (targets.length === 0) f.add('medium', 'unreadable-patch', `the ${call.tool} patch names no file Baton can read`);
    if (targets.length > MAX_TARGETS_PER_COMMAND) f.add('high', 'too-complex', `the ${call.tool} patch touches ${targets.length} files, more than Baton places (${MAX_TARGETS_PER_COMMAND})`);
    for (const t of targets.slice(0, MAX_TARGETS_PER_COMMAND)) {
      checkPath(t.path, `${call.tool} (${t.op})`, true, pc, f);
      if (t.op === 'delete' && targetsOf({ value: t.path, dynamic: false }, pc).some((x) => x.place === 'root')) f.add('high', 'delete-workspace', `${call.tool} deletes the workspace root`);
    }
  } else if (SHELL_TOOLS.has(tool) || (shell !== null && !WRITE_TOOLS.has(tool))) {
    if (shell === null) f.add('medium', 'unreadable-command', `the ${call.tool} call has no command string to check`);
    else {
      const scope: ShellScope = { pc, f, depth: 0, broadRoot };
      analyseShell(shell.command, scope);
    }
  } else if (FETCH_TOOLS.has(tool)) {
    checkFetch(call.tool, call.input, f);
  } else {
    const paths = pathsOf(call.input);
    const reads = READ_TOOLS.has(tool) || (!WRITE_TOOLS.has(tool) && looksReadOnly(call.tool));
    if (paths.length > MAX_TARGETS_PER_COMMAND) f.add('high', 'too-complex', `the ${call.tool} call names ${paths.length} paths, more than Baton places (${MAX_TARGETS_PER_COMMAND})`);
    if (paths.length > 0) for (const p of paths.slice(0, MAX_TARGETS_PER_COMMAND)) checkPath(p, call.tool, !reads, pc, f);
    else if (WRITE_TOOLS.has(tool)) f.add('medium', 'unreadable-path', `the ${call.tool} call names no file path to check`);
    else if (!READ_TOOLS.has(tool) && !tool.startsWith('mcp__')) f.add('medium', 'unknown-tool', `Baton has no risk rules for the ${call.tool} tool; check its input yourself`);
  }
  for (const key of ['sql', 'query', 'statement']) {
    const v = call.input[key];
    if (typeof v === 'string' && DESTRUCTIVE_SQL.some((re) => re.test(v))) f.add('high', 'destructive-sql', `the ${call.tool} call runs a destructive SQL statement`);
  }
  const reasons = [...f.reasons].sort((a, b) => LEVEL_ORDER[b.level] - LEVEL_ORDER[a.level]);
  return { level: maxLevel(reasons), reasons };
}

export { maxLevel };
/** Whether `p` counts as absolute for the rules (exported for the bridge's input checks). */
export { isAbsolutePath };
export { initPolicy, policyReady } from './parser.js';
