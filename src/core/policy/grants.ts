import type { RiskLevel } from '../../shared/approvals.js';
import { LEVEL_ORDER } from './findings.js';
import { assessRisk, type RiskContext, type ToolCall } from './risk.js';
import { readShell } from './shell-ast.js';
import { realpathLongest, sensitiveReason, targetsOf, type PathContext } from './targets.js';
import { FETCH_TOOLS, patchOf, patchTargets, pathsOf, READ_TOOLS, SHELL_TOOLS, shellCommandOf, urlsOf, WRITE_TOOLS } from './tool-shapes.js';
import { normalizeAbsolute, resolvePath } from './paths.js';

/**
 * "Allow for this session" grants, which can only be narrow. `deriveGrant` gives the exact rule a
 * decision would create (or why there is none); `grantAllows` tells whether a rule lets a later
 * call through. The forms, in Claude Code's rule syntax:
 *   Bash(npm test)          exactly this command
 *   Bash(npm test:*)        a safe prefix (build/test/status commands only), a single simple
 *                           command with no operators, redirections, substitutions or variables
 *   Write(/real/path/a.ts)  one file, by its real path (symlinks followed)
 *   WebFetch(domain:host)   one origin host
 * Never a bare tool. A call rated high is never granted and never allowed by a grant; a prefix
 * or domain grant allows only calls rated low, an exact grant only calls rated at most medium.
 * Property-tested in grants.test.ts: a grant never allows a call rated higher than its origin.
 */
export type GrantDerivation = { ok: true; rule: string; summary: string } | { ok: false; reason: string };

/** A command longer than this is approved once, never remembered. */
export const MAX_GRANT_COMMAND_CHARS = 2_000;

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;
const RULE = /^([A-Za-z0-9_.-]+)\((.*)\)$/s;

/**
 * Command prefixes that may be granted as `prefix:*`: builds, tests, linters and read-only git.
 * `*` takes the word the call used (the script name of `npm run build`).
 */
export const SAFE_PREFIXES: readonly (readonly string[])[] = [
  ['npm', 'test'], ['npm', 'run', '*'], ['npm', 'ci'], ['pnpm', 'test'], ['pnpm', 'run', '*'], ['yarn', 'test'], ['yarn', 'run', '*'], ['bun', 'test'], ['bun', 'run', '*'],
  ['npx', 'vitest'], ['npx', 'jest'], ['npx', 'tsc'], ['npx', 'eslint'], ['npx', 'prettier'], ['npx', 'playwright', 'test'],
  ['cargo', 'test'], ['cargo', 'build'], ['cargo', 'check'], ['cargo', 'clippy'], ['cargo', 'fmt'],
  ['go', 'test'], ['go', 'build'], ['go', 'vet'], ['pytest'], ['python', '-m', 'pytest'], ['python3', '-m', 'pytest'], ['uv', 'run', 'pytest'],
  ['make', 'test'], ['make', 'lint'], ['make', 'check'], ['mvn', 'test'], ['gradle', 'test'], ['./gradlew', 'test'], ['dotnet', 'test'], ['dotnet', 'build'], ['mix', 'test'], ['bundle', 'exec', 'rspec'],
  ['git', 'status'], ['git', 'diff'], ['git', 'log'], ['git', 'show'], ['git', 'branch', '--show-current'],
];

type PrefixWords = string[];

/** The words of a command when it is one plain simple command; null otherwise. */
function plainWords(command: string): string[] | null {
  const script = readShell(command);
  if (!script || script.hasError || script.commands.length !== 1) return null;
  const c = script.commands[0]!;
  if (c.redirects.length || c.stdin || c.inner.length || c.pipedFrom.length || c.nameDynamic) return null;
  if (c.words.some((w) => w.dynamic || w.ansiC || /[*?[\]{}~`$]/.test(w.value) || w.value.includes('\n'))) return null;
  if (/[;&|<>()`$\n]/.test(command)) return null; // belt and braces: no operators even inside quotes
  return c.words.map((w) => w.value);
}

function safePrefixOf(words: string[]): PrefixWords | null {
  for (const pattern of SAFE_PREFIXES) {
    if (words.length < pattern.length) continue;
    const taken = pattern.map((p, i) => (p === '*' ? words[i]! : p));
    const plain = taken.every((p, i) => /^[A-Za-z0-9_.:@/-]+$/.test(p) && (pattern[i] !== '*' || !p.startsWith('-')));
    if (plain && taken.every((p, i) => words[i] === p)) return taken;
  }
  return null;
}

function pathContextOf(ctx: RiskContext): PathContext {
  return { cwd: realpathLongest(normalizeAbsolute(ctx.cwd)), root: realpathLongest(normalizeAbsolute(ctx.workspaceRoot)), ...(ctx.home ? { home: ctx.home } : {}), tempDirs: (ctx.tempDirs ?? ['/tmp', '/var/tmp']).map((t) => realpathLongest(t)) };
}

/** Real paths a file tool call names, or null when one of them cannot be placed. */
function realPathsOf(call: ToolCall, ctx: RiskContext): string[] | null {
  const patch = patchOf(call.tool, call.input);
  const written = patch !== null ? patchTargets(patch).map((t) => t.path) : pathsOf(call.input);
  if (written.length === 0) return null;
  const out: string[] = [];
  for (const p of written) {
    const targets = targetsOf({ value: p, dynamic: false }, pathContextOf(ctx));
    if (targets.length !== 1 || targets[0]!.place === 'unknown' || targets[0]!.globAll || /[*?[]/.test(p)) return null;
    out.push(targets[0]!.path);
  }
  return [...new Set(out)];
}

/** A shell call's own working directory (Codex `workdir`) must be the context's cwd. */
function sameWorkdir(workdir: string | null, ctx: RiskContext): boolean {
  return workdir === null || realpathLongest(resolvePath(ctx.cwd, workdir)) === realpathLongest(normalizeAbsolute(ctx.cwd));
}

function refuse(reason: string): GrantDerivation {
  return { ok: false, reason };
}

export function deriveGrant(call: ToolCall, ctx: RiskContext): GrantDerivation {
  if (!TOOL_NAME.test(call.tool)) return refuse(`the tool name "${call.tool}" cannot be written as a rule`);
  const risk = assessRisk(call, ctx);
  if (risk.level === 'high') {
    return refuse(`the call is high risk (${risk.reasons.filter((r) => r.level === 'high').map((r) => r.rule).join(', ')}): approve it once, never for the session`);
  }
  const tool = call.tool.toLowerCase();
  const patch = patchOf(call.tool, call.input);
  if (patch === null && (SHELL_TOOLS.has(tool) || call.input.command !== undefined || call.input.cmd !== undefined)) {
    const raw = call.input.command ?? call.input.cmd;
    const shell = shellCommandOf(call.input);
    if (shell === null) return refuse(`the ${call.tool} command is ${raw === undefined ? 'missing' : `not a string (${Array.isArray(raw) ? 'an array with non-strings' : typeof raw})`}, so no rule can match only this call`);
    const command = shell.command;
    if (!sameWorkdir(shell.workdir, ctx)) return refuse(`the ${call.tool} call runs in ${shell.workdir}, not in ${ctx.cwd}; the same command elsewhere may do something else`);
    if (command.trim() === '') return refuse('the command is empty');
    if (command.length > MAX_GRANT_COMMAND_CHARS) return refuse(`the command is longer than ${MAX_GRANT_COMMAND_CHARS} characters`);
    if (/:\*\s*$|\/\*\*\s*$|^\s*\*\s*$/.test(command)) return refuse('the command ends like a wildcard rule and would match more than itself');
    const words = plainWords(command);
    const prefix = risk.level === 'low' && words ? safePrefixOf(words) : null;
    if (prefix) return { ok: true, rule: `${call.tool}(${prefix.join(' ')}:*)`, summary: `"${prefix.join(' ')}" with any plain arguments (no pipes, redirections, substitutions or variables), while it stays low risk` };
    return { ok: true, rule: `${call.tool}(${command})`, summary: `exactly this command: ${command.length > 120 ? `${command.slice(0, 117)}...` : command}` };
  }
  if (FETCH_TOOLS.has(tool)) {
    const urls = urlsOf(call.input);
    const hosts = new Set<string>();
    for (const u of urls) {
      try {
        const url = new URL(u);
        if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(`${u} is not an http(s) URL`);
        hosts.add(url.hostname.toLowerCase());
      } catch {
        return refuse(`"${u.slice(0, 80)}" is not a URL`);
      }
    }
    if (hosts.size !== 1) return refuse(hosts.size === 0 ? `the ${call.tool} call names no URL` : `the ${call.tool} call names several hosts (${[...hosts].join(', ')})`);
    if (risk.level !== 'low') return refuse(`the fetch is ${risk.level} risk (${risk.reasons.map((r) => r.rule).join(', ')}); approve it once`);
    const host = [...hosts][0]!;
    return { ok: true, rule: `${call.tool}(domain:${host})`, summary: `fetches from ${host} only, while they stay low risk` };
  }
  const paths = realPathsOf(call, ctx);
  if (paths !== null) {
    if (paths.length !== 1) return refuse(`the ${call.tool} call touches several files (${paths.join(', ')}); approve it once`);
    const path = paths[0]!;
    const why = sensitiveReason(path);
    if (why) return refuse(`${path} is sensitive (${why}); it is never granted`);
    if (/[()]/.test(path)) return refuse(`the path ${path} holds parentheses and cannot be written as a rule`);
    return { ok: true, rule: `${call.tool}(${path})`, summary: `${READ_TOOLS.has(tool) ? 'reads' : 'changes to'} this one file, by its real path: ${path}` };
  }
  if (WRITE_TOOLS.has(tool) || patch !== null) return refuse(`the ${call.tool} call names no file Baton can place, so no rule can match only it`);
  return refuse(`the ${call.tool} call carries no command, path or URL, so the only rule would be the whole tool, which Baton never grants`);
}

function levelOk(level: RiskLevel, ceiling: RiskLevel): boolean {
  return LEVEL_ORDER[level] <= LEVEL_ORDER[ceiling];
}

export function grantAllows(rule: string, call: ToolCall, ctx: RiskContext): boolean {
  const m = RULE.exec(rule);
  if (!m || m[1] !== call.tool || m[2] === '' || m[2] === '*') return false;
  const spec = m[2]!;
  const risk = assessRisk(call, ctx);
  if (risk.level === 'high') return false;
  const tool = call.tool.toLowerCase();
  const patch = patchOf(call.tool, call.input);
  if (spec.startsWith('domain:')) {
    if (!FETCH_TOOLS.has(tool) || !levelOk(risk.level, 'low')) return false;
    const urls = urlsOf(call.input);
    return urls.length > 0 && urls.every((u) => {
      try {
        const url = new URL(u);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.toLowerCase() === spec.slice(7);
      } catch {
        return false;
      }
    });
  }
  if (patch === null && (SHELL_TOOLS.has(tool) || call.input.command !== undefined || call.input.cmd !== undefined)) {
    const shell = shellCommandOf(call.input);
    if (shell === null || !sameWorkdir(shell.workdir, ctx)) return false;
    if (spec.endsWith(':*')) {
      if (!levelOk(risk.level, 'low')) return false;
      const prefix = spec.slice(0, -2).split(' ');
      const words = plainWords(shell.command);
      return words !== null && safePrefixOf(words) !== null && prefix.every((p, i) => words[i] === p);
    }
    return levelOk(risk.level, 'medium') && shell.command === spec;
  }
  if (spec.startsWith('/')) {
    if (!levelOk(risk.level, 'medium')) return false;
    const paths = realPathsOf(call, ctx);
    return paths !== null && paths.length === 1 && paths[0] === spec && sensitiveReason(spec) === null;
  }
  return false;
}
