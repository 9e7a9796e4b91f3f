// The risk rules as they were before issue 10 (commit 3867dcf), kept only as the benchmark baseline.
import type { RiskAssessment, RiskLevel, RiskReason } from '../../../src/shared/approvals.js';
import { commandName, flagsOf, unwrap } from './command-words.js';
import { isAbsolutePath, isInside, normalizeAbsolute, resolvePath } from '../../../src/core/policy/paths.js';
import { parseShell, quoteWords, type SimpleCommand, type Word } from './shell-parse.js';

/**
 * The risk policy: a small set of pure rules over a tool call, each with a stable name and a
 * sentence for the person deciding. High risk means the UI asks for a second, deliberate
 * confirmation. The rules read the command the way the shell would (quotes, `sudo`, `bash -c`,
 * chains, substitutions), but never run or expand anything: a target we cannot know (`$VAR`)
 * counts as outside the workspace.
 *
 * `git push --force-with-lease` is high risk like `--force`: it still rewrites the remote's
 * history, and its lease is checked against the local remote-tracking ref, which any background
 * `git fetch` (editors do this) silently updates, so the protection is weaker than it looks.
 */
export interface RiskContext {
  cwd: string;
  /** Writes and recursive deletes outside this root are high risk. */
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
/** Nesting of `bash -c`, `eval` and substitutions we follow before calling the line suspicious. */
export const MAX_SHELL_NESTING = 6;
/** Longest command we analyse; beyond it the request is high risk by size alone. */
export const MAX_COMMAND_CHARS = 64 * 1024;

const SHELL_TOOLS = new Set(['bash', 'shell', 'exec', 'run_shell_command', 'local_shell', 'exec_command']);
const WRITE_TOOLS = new Set(['write', 'edit', 'multiedit', 'notebookedit', 'apply_patch', 'create_file', 'str_replace_editor']);
const READ_TOOLS = new Set(['read', 'glob', 'grep', 'ls', 'todowrite', 'websearch', 'notebookread', 'task']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'busybox']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php', 'pwsh', 'powershell', 'iex']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'xh', 'iwr', 'invoke-webrequest']);
const DB_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'mongo', 'mongosh', 'sqlcmd', 'cockroach', 'clickhouse-client', 'duckdb', 'bq', 'snowsql', 'pgcli', 'mycli', 'litecli']);
const SYSTEM_DESTRUCTIVE = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'fdisk', 'parted', 'wipefs', 'sgdisk']);
const DELETE_COMMANDS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash']);
/** Commands that write to every operand. */
const WRITES_OPERANDS = new Set(['touch', 'mkdir', 'truncate', 'tee']);
/** Commands whose last operand (or -t DIR) is the destination. */
const WRITES_LAST = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);
const HARMLESS_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);

const DESTRUCTIVE_SQL = [
  /\bdrop\s+(table|database|schema|index|view|collection|user|role)\b/i,
  /\btruncate\s+(table\s+)?[\w."`]+/i,
  /\bdelete\s+from\s+[\w."`]+\s*(;|$|"|')/i,
  /\balter\s+table\s+[\w."`]+\s+drop\b/i,
  /\.drop(Database|Collection)?\(\s*\)/,
  /\bflushall\b|\bflushdb\b/i,
];
const MIGRATIONS =
  /\b(prisma\s+(migrate\s+(deploy|dev|reset|resolve)|db\s+(push|execute))|db:(migrate|rollback|reset|drop|schema:load|setup)|manage\.py\s+(migrate|flush)|alembic\s+(upgrade|downgrade|stamp)|knex\s+migrate:\w+|sequelize(-cli)?\s+db:migrate\S*|typeorm(-ts-node-\w+)?\s+migration:(run|revert)|flyway\s+(migrate|clean|repair|undo)|liquibase\s+(update|rollback|drop-all)|diesel\s+(migration\s+(run|redo|revert)|database\s+reset)|goose\s+(\S+\s+){0,3}(up|down|reset|redo)|dbmate\s+(up|down|migrate|rollback|drop)|migrate\s+(-\S+\s+\S+\s+)*(up|down|drop|force)|(npm|pnpm|yarn|bun)\s+(run\s+)?(db:)?migrate\S*|mix\s+ecto\.(migrate|rollback|drop|reset)|sqlx\s+migrate\s+run|atlas\s+(migrate\s+apply|schema\s+apply)|supabase\s+db\s+(push|reset))\b/i;

class Findings {
  readonly reasons: RiskReason[] = [];
  add(level: RiskLevel, rule: string, message: string): void {
    if (!this.reasons.some((r) => r.rule === rule && r.message === message)) this.reasons.push({ rule, level, message });
  }
}

/** Where a word points, or null when it depends on something we cannot know. */
function targetOf(word: Word, ctx: RiskContext): string | null {
  const v = word.value;
  if (/^(\$HOME|\$\{HOME\})(\/|$)/.test(v) || v === '~' || v.startsWith('~/')) {
    return ctx.home ? resolvePath(ctx.cwd, ctx.home + v.replace(/^(\$HOME|\$\{HOME\}|~)/, '')) : null;
  }
  if (word.dynamic || v.includes('$') || v.startsWith('~')) return null;
  return resolvePath(ctx.cwd, v);
}

type Place = 'inside' | 'workspace-itself' | 'temp' | 'outside' | 'unknown';

function placeOf(word: Word, ctx: RiskContext): { place: Place; path: string } {
  const target = targetOf(word, ctx);
  if (target === null) return { place: 'unknown', path: word.value };
  const root = normalizeAbsolute(ctx.workspaceRoot);
  if (isInside(root, target)) return { place: 'workspace-itself', path: target };
  if (isInside(target, root)) return { place: 'inside', path: target };
  if ((ctx.tempDirs ?? DEFAULT_TEMP_DIRS).some((t) => isInside(target, t))) return { place: 'temp', path: target };
  return { place: 'outside', path: target };
}

function checkWrite(word: Word, ctx: RiskContext, f: Findings, what: string): void {
  if (HARMLESS_SINKS.has(word.value) || /^\d+$|^-$/.test(word.value)) return;
  const { place, path } = placeOf(word, ctx);
  if (place === 'inside') return;
  if (place === 'temp') f.add('medium', 'write-to-temp', `${what} writes to ${path}, outside the workspace (a temp dir)`);
  else if (place === 'unknown') f.add('high', 'write-outside-workspace', `${what} writes to "${path}", which depends on a variable; it may be outside the workspace ${ctx.workspaceRoot}`);
  else if (path.startsWith('/dev/')) f.add('high', 'device-write', `${what} writes to the device ${path}`);
  else f.add('high', 'write-outside-workspace', `${what} writes to ${path}, outside the workspace ${ctx.workspaceRoot}`);
}

function checkDelete(cmd: string, args: Word[], ctx: RiskContext, f: Findings, forceRecursive = false): void {
  const { short, long, operands } = flagsOf(args);
  const recursive = forceRecursive || short.has('r') || short.has('R') || long.has('--recursive');
  for (const target of operands) {
    const { place, path } = placeOf(target, ctx);
    const shown = `${cmd} ${recursive ? '-r ' : ''}${target.value}`;
    if (place === 'inside') {
      if (recursive) f.add('medium', 'recursive-delete', `${shown} deletes a directory tree inside the workspace`);
    } else if (place === 'workspace-itself') {
      f.add('high', 'delete-workspace', `${shown} deletes ${path}, the workspace itself or a folder above it`);
    } else if (place === 'unknown') {
      f.add('high', recursive ? 'recursive-delete-outside-workspace' : 'delete-outside-workspace', `${shown} deletes "${target.value}", which depends on a variable or ~ and may be outside the workspace`);
    } else if (place === 'temp') {
      f.add('medium', 'delete-in-temp', `${shown} deletes ${path} in a temp dir`);
    } else {
      f.add('high', recursive ? 'recursive-delete-outside-workspace' : 'delete-outside-workspace', `${shown} deletes ${path}, outside the workspace ${ctx.workspaceRoot}`);
    }
  }
}

function checkGit(args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  // Skip global options (-C dir, -c k=v) to find the subcommand.
  let i = 0;
  while (i < values.length && values[i]!.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree'].includes(values[i]!) ? 2 : 1;
  const sub = values[i];
  const rest = args.slice(i + 1);
  const { short, long, operands } = flagsOf(rest);
  if (sub === 'push') {
    if (long.has('--force') || short.has('f')) f.add('high', 'git-force-push', 'git push --force rewrites the remote branch and can discard other people\'s commits');
    else if (long.has('--force-with-lease') || long.has('--force-if-includes')) f.add('high', 'git-force-push', 'git push --force-with-lease still rewrites the remote history; its lease is only as fresh as the last fetch');
    else if (operands.some((w) => w.value.startsWith('+'))) f.add('high', 'git-force-push', 'git push +refspec force-updates the remote branch');
    if (long.has('--delete') || short.has('d') || operands.some((w) => w.value.startsWith(':'))) f.add('high', 'git-delete-remote-branch', 'git push deletes a branch on the remote');
    if (long.has('--mirror') || long.has('--prune')) f.add('high', 'git-mirror-push', 'git push --mirror/--prune can delete remote branches');
  } else if (sub === 'reset' && long.has('--hard')) {
    f.add('high', 'git-reset-hard', 'git reset --hard throws away uncommitted changes; they cannot be recovered');
  } else if (sub === 'clean' && (short.has('f') || long.has('--force'))) {
    f.add('high', 'git-clean', 'git clean -f deletes untracked files; they are not in git and cannot be recovered');
  } else if ((sub === 'checkout' || sub === 'restore') && (values.includes('.') || values.includes('--') || long.has('--force') || short.has('f'))) {
    f.add('medium', 'git-discard-changes', `git ${sub} can overwrite uncommitted changes in the working tree`);
  } else if (sub === 'branch' && (short.has('D') || (short.has('d') && short.has('f')))) {
    f.add('medium', 'git-delete-branch', 'git branch -D deletes a branch even if it is not merged');
  } else if (sub === 'filter-branch' || sub === 'filter-repo' || (sub === 'stash' && ['clear', 'drop'].includes(operands[0]?.value ?? ''))) {
    f.add('high', 'git-history-rewrite', `git ${sub} ${operands[0]?.value ?? ''} destroys history or stashed work`.trim());
  } else if (sub === 'rebase' || sub === 'commit' && long.has('--amend')) {
    f.add('medium', 'git-history-rewrite', `git ${sub} rewrites local history`);
  }
}

function analyseCommand(sc: SimpleCommand, all: SimpleCommand[], index: number, ctx: RiskContext, f: Findings, depth: number): void {
  const { words, asRoot } = unwrap(sc.words);
  if (asRoot) f.add('medium', 'runs-as-root', 'runs a command as root (sudo/doas)');
  for (const sub of sc.substitutions) analyseShell(sub, ctx, f, depth + 1);
  for (const r of sc.redirects) if (r.op.includes('>') && !r.op.endsWith('&')) checkWrite(r.target, ctx, f, `the redirection ${r.op}`);

  const name = commandName(words[0]).toLowerCase();
  const args = words.slice(1);
  const text = quoteWords(words.map((w) => w.value));
  if (!name) return;

  // Something downloaded and fed to an interpreter: `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`.
  const downloadInside = sc.substitutions.some((s) => parseShell(s).commands.some((c) => DOWNLOADERS.has(commandName(unwrap(c.words).words[0]).toLowerCase())));
  if (INTERPRETERS.has(name) || name === 'eval' || name === 'source' || name === '.') {
    const fedByDownload = all.slice(0, index).some((c, j) => {
      const chained = all.slice(j, index).every((x) => x.next === '|' || x.next === '|&');
      return chained && DOWNLOADERS.has(commandName(unwrap(c.words).words[0]).toLowerCase());
    });
    if (fedByDownload || downloadInside) f.add('high', 'download-piped-to-shell', `runs code downloaded from the network with ${name}, unseen`);
  }

  if (SHELLS.has(name) || name === 'eval') {
    const cIndex = name === 'eval' ? 0 : args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.value));
    if (name === 'eval') analyseShell(args.map((w) => w.value).join(' '), ctx, f, depth + 1);
    else if (cIndex >= 0 && args[cIndex + 1]) analyseShell(args[cIndex + 1]!.value, ctx, f, depth + 1);
  }
  if (DELETE_COMMANDS.has(name)) checkDelete(name, args, ctx, f);
  if (name === 'find' && args.some((w) => w.value === '-delete' || (w.value === '-exec' || w.value === '-execdir'))) {
    const roots = args.filter((w, k) => !w.value.startsWith('-') && !w.value.startsWith('(') && (k === 0 || !args[k - 1]!.value.startsWith('-')));
    if (args.some((w) => w.value === '-delete') || args.some((w) => ['rm', '/bin/rm'].includes(w.value))) checkDelete('find', roots.length ? roots : [{ value: '.', dynamic: false }], ctx, f, true);
  }
  if (name === 'git') checkGit(args, f);
  if (['chmod', 'chown', 'chgrp', 'setfacl'].includes(name)) {
    const { short, long, operands } = flagsOf(args);
    if (short.has('R') || long.has('--recursive')) f.add('high', 'recursive-permission-change', `${name} -R changes ownership or permissions of a whole tree`);
    for (const t of operands.slice(1)) checkWrite(t, ctx, f, name);
  }
  if (WRITES_OPERANDS.has(name)) for (const t of flagsOf(args).operands) checkWrite(t, ctx, f, name);
  if (WRITES_LAST.has(name)) {
    const tIndex = args.findIndex((w) => w.value === '-t' || w.value.startsWith('--target-directory'));
    const dest = tIndex >= 0 ? (args[tIndex]!.value.includes('=') ? { value: args[tIndex]!.value.split('=')[1]!, dynamic: false } : args[tIndex + 1]) : flagsOf(args).operands.at(-1);
    if (dest && flagsOf(args).operands.length + (tIndex >= 0 ? 1 : 0) >= 2 && !dest.value.includes(':')) checkWrite(dest, ctx, f, name);
    if (name === 'mv') for (const src of flagsOf(args).operands.slice(0, -1)) if (placeOf(src, ctx).place !== 'inside') checkWrite(src, ctx, f, 'mv (moving away)');
  }
  if (name === 'sed' && args.some((w) => /^-[a-z]*i/.test(w.value) || w.value.startsWith('--in-place'))) {
    for (const t of flagsOf(args).operands.slice(1)) checkWrite(t, ctx, f, 'sed -i');
  }
  if (name === 'dd') {
    const of = args.find((w) => w.value.startsWith('of='));
    if (of) checkWrite({ value: of.value.slice(3), dynamic: of.dynamic }, ctx, f, 'dd');
  }
  if (name.startsWith('mkfs') || SYSTEM_DESTRUCTIVE.has(name)) f.add('high', 'system-destructive', `${name} can destroy a disk or stop the machine`);
  if (name === 'kill' && args.some((w) => w.value === '-1')) f.add('high', 'system-destructive', 'kill -1 signals every process you own');
  if (DB_CLIENTS.has(name) || name === 'redis-cli') {
    const sql = [text, ...sc.redirects.map((r) => r.target.value)].join(' ');
    if (DESTRUCTIVE_SQL.some((re) => re.test(sql))) f.add('high', 'destructive-sql', `${name} runs a destructive statement (DROP, TRUNCATE, DELETE without WHERE, FLUSHALL)`);
  }
  if (MIGRATIONS.test(text)) f.add('high', 'database-migration', `runs a database migration (${text.slice(0, 80)}); schema changes are hard to undo`);
}

function analyseShell(command: string, ctx: RiskContext, f: Findings, depth: number): void {
  if (depth > MAX_SHELL_NESTING) {
    f.add('high', 'too-complex', `the command nests shells or substitutions more than ${MAX_SHELL_NESTING} deep; Baton cannot check it`);
    return;
  }
  if (command.length > MAX_COMMAND_CHARS) {
    f.add('high', 'too-complex', `the command is longer than ${MAX_COMMAND_CHARS} characters; Baton cannot check it`);
    return;
  }
  const parsed = parseShell(command);
  if (parsed.unterminated) f.add('medium', 'unterminated-quote', 'the command has an unterminated quote or substitution');
  // Heredocs feed text to a client: look for SQL in the whole line when a DB client is involved.
  const usesDb = parsed.commands.some((c) => DB_CLIENTS.has(commandName(unwrap(c.words).words[0]).toLowerCase()));
  if (usesDb && DESTRUCTIVE_SQL.some((re) => re.test(command))) f.add('high', 'destructive-sql', 'sends a destructive SQL statement (DROP, TRUNCATE, DELETE without WHERE) to a database client');
  parsed.commands.forEach((sc, i) => analyseCommand(sc, parsed.commands, i, ctx, f, depth));
}

function commandText(input: Record<string, unknown>): string | null {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    // Codex sends argv arrays; ["bash","-lc","…"] is the common shape.
    return quoteWords(c as string[]);
  }
  return null;
}

function filePathOf(input: Record<string, unknown>): string | null {
  for (const key of ['file_path', 'notebook_path', 'path', 'filePath']) {
    const v = input[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return null;
}

const ORDER: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

export function maxLevel(reasons: readonly RiskReason[]): RiskLevel {
  return reasons.reduce<RiskLevel>((acc, r) => (ORDER[r.level] > ORDER[acc] ? r.level : acc), 'low');
}

/** The risk of one tool call, with every reason found (highest first). */
export function assessRisk(call: ToolCall, ctx: RiskContext): RiskAssessment {
  const f = new Findings();
  const tool = call.tool.toLowerCase();
  const command = commandText(call.input);
  if (SHELL_TOOLS.has(tool) || (command !== null && !WRITE_TOOLS.has(tool))) {
    if (command === null) f.add('medium', 'unreadable-command', `the ${call.tool} call has no command string to check`);
    else analyseShell(command, ctx, f, 0);
  } else if (WRITE_TOOLS.has(tool)) {
    const p = filePathOf(call.input);
    if (p === null) f.add('medium', 'unreadable-path', `the ${call.tool} call names no file path to check`);
    else {
      checkWrite({ value: p, dynamic: false }, ctx, f, call.tool);
      const abs = resolvePath(ctx.cwd, p);
      if (isInside(abs, ctx.workspaceRoot) && /\/\.git\//.test(abs)) f.add('medium', 'git-internals', `${call.tool} changes git's own files (${abs})`);
    }
  } else if (!READ_TOOLS.has(tool) && !tool.startsWith('mcp__')) {
    f.add('medium', 'unknown-tool', `Baton has no risk rules for the ${call.tool} tool; check its input yourself`);
  }
  for (const key of ['sql', 'query', 'statement']) {
    const v = call.input[key];
    if (typeof v === 'string' && DESTRUCTIVE_SQL.some((re) => re.test(v))) f.add('high', 'destructive-sql', `the ${call.tool} call runs a destructive SQL statement`);
  }
  const reasons = [...f.reasons].sort((a, b) => ORDER[b.level] - ORDER[a.level]);
  return { level: maxLevel(reasons), reasons };
}

/** Whether `p` counts as absolute for the rules (exported for the bridge's input checks). */
export { isAbsolutePath };
