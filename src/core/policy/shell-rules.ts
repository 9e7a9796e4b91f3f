import { checkFamilies, DB_CLIENTS, DESTRUCTIVE_SQL } from './families.js';
import { checkGit } from './git-rules.js';
import { CODE_FLAGS, inspectCode, languageOf } from './inline-code.js';
import { MAX_SHELL_COMMANDS, readShell, type Command } from './shell-ast.js';
import { checkCopy, checkDelete, checkDownloader, checkExtract, checkWrite, checkWrites, DOWNLOADERS, type ShellScope } from './path-rules.js';
import { isSecretPath, targetsOf } from './targets.js';
import { commandName, flagsOf, quoteWords, unwrap, type Word } from './words.js';

/**
 * The rules over a shell line. Posture: unknown means ask loudly. A command word we cannot read
 * (`$X`, `$(…)`, `$'\x72\x6d'`, `eval`), text fed to a shell, and a target that depends on a
 * variable are all treated as the worst they could be.
 */
export type { ShellScope } from './path-rules.js';

/** Nesting of `bash -c`, `eval` and heredocs we follow before calling the line too complex. */
export const MAX_SHELL_NESTING = 6;
/** Longest command we analyse; beyond it the request is high risk by size alone. */
export const MAX_COMMAND_CHARS = 64 * 1024;

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'csh', 'tcsh', 'rbash', 'pwsh', 'powershell']);
const OTHER_INTERPRETERS = new Set(['lua', 'luajit', 'tclsh', 'wish', 'Rscript', 'R', 'osascript', 'awk', 'gawk', 'jshell', 'irb', 'ipython', 'julia', 'groovy', 'scala', 'expect', 'gdb']);
const NETWORK_SENDERS = new Set([...DOWNLOADERS, 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'scp', 'sftp', 'ftp', 'rsync', 'ssh', 'mail', 'mailx', 'sendmail', 'rclone', 'gsutil', 'openssl', 'tftp', 'smbclient', 'dig', 'nslookup', 'host']);
/** Commands that print the whole environment (tokens included) when run bare; sudo/nohup wrap them. */
const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen', 'sudo', 'nohup']);
const SYSTEM_DESTRUCTIVE = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'fdisk', 'parted', 'wipefs', 'sgdisk', 'cfdisk', 'sfdisk', 'blkdiscard', 'cryptsetup', 'lvremove', 'vgremove', 'pvremove', 'zpool', 'init', 'telinit']);
const DELETE_COMMANDS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put', 'wipe']);
const WRITES_OPERANDS = new Set(['touch', 'mkdir', 'truncate', 'tee', 'mkfifo', 'mknod']);
const WRITES_LAST = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp']);

function isInterpreter(name: string): boolean {
  return SHELLS.has(name) || languageOf(name) !== null || OTHER_INTERPRETERS.has(name);
}

/** Does the interpreter read its program from stdin (no script operand, or `-`)? */
function readsProgramFromStdin(name: string, args: Word[]): boolean {
  const { operands, short } = flagsOf(args);
  if (args.some((w) => w.value === '-' || /^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(w.value))) return true;
  if (SHELLS.has(name) && short.has('s')) return true;
  if (SHELLS.has(name) && short.has('c')) return false;
  const lang = languageOf(name);
  if (lang && args.some((w) => CODE_FLAGS[lang].includes(w.value))) return false;
  if (lang === 'python' && args.some((w) => w.value === '-m')) return false;
  return operands.length === 0;
}

function firstWordName(c: Command): string {
  return commandName(unwrap(c.words).words[0]).toLowerCase();
}

/** The argument that follows one of `flags` (or is glued to it: `-c'…'` is rare, `-cCODE` too). */
function argAfter(args: Word[], flags: readonly string[]): Word | null {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (flags.includes(v)) return args[i + 1] ?? null;
    // A cluster of short flags ending in the code flag: bash -lc, ruby -pe, perl -ne.
    if (/^-[a-zA-Z]{2,}$/.test(v) && flags.some((fl) => fl.length === 2 && v.endsWith(fl[1]!))) return args[i + 1] ?? null;
  }
  return null;
}

function analyseShellCode(text: string, shown: string, scope: ShellScope): void {
  analyseShell(text, { ...scope, depth: scope.depth + 1 }, shown);
}

function analyseCommand(cmd: Command, scope: ShellScope): void {
  const { f, pc } = scope;
  for (const r of cmd.redirects) {
    if (r.op.includes('>') || r.op === '&>' || r.op === '&>>') {
      if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(r.target.value)) continue;
      checkWrite(r.target, scope, `the redirection ${r.op}`);
    }
  }
  if (cmd.words.length === 0) return;
  if (/^[{}()\s]+$/.test(cmd.words[0]!.value) && !cmd.words[0]!.dynamic) {
    // A stray grouping word: bash reads this line differently from how it looks.
    f.add('high', 'unparsed-syntax', `"${cmd.words[0]!.value}" stands where a command should be; Baton cannot tell what bash would run`);
  }
  if (cmd.nameDynamic) {
    f.add('high', 'dynamic-command-word', `the command word ${JSON.stringify(cmd.words[0]!.value)} is computed (substitution, variable or ANSI-C quoting); Baton cannot know what runs`);
  }
  const { words, asRoot, viaXargs, wrappers } = unwrap(cmd.words);
  if (asRoot) f.add('medium', 'runs-as-root', 'runs a command as root (sudo/doas)');
  // `env -S 'cmd args'` splits its string into a command line.
  const split = cmd.words.findIndex((w) => w.value === '-S' || w.value === '--split-string' || w.value.startsWith('--split-string='));
  if (split > 0 && wrappers.includes('env')) {
    const text = cmd.words[split]!.value.includes('=') ? { value: cmd.words[split]!.value.split('=').slice(1).join('='), dynamic: cmd.words[split]!.dynamic } : cmd.words[split + 1];
    if (text?.dynamic) f.add('high', 'dynamic-shell-code', 'env -S runs a command line Baton cannot see');
    else if (text) analyseShellCode([text.value, ...cmd.words.slice(split + 2).map((w) => w.value)].join(' '), 'env -S', scope);
  }
  const rootShell = asRoot && (words.length === 0 || (SHELLS.has(commandName(words[0]).toLowerCase()) && !words.some((w) => /^-[a-zA-Z]*c$/.test(w.value)) && flagsOf(words.slice(1)).operands.length === 0));
  const wrapperWords = cmd.words.slice(0, cmd.words.length - words.length);
  if (rootShell || (words.length === 0 && wrapperWords.some((w) => ['-s', '-i', '--shell', '--login'].includes(w.value)))) {
    f.add('high', 'root-shell', 'opens a root shell; whatever it reads next runs as root');
  }
  if (words.length === 0) return;
  const head = words[0]!;
  if (!cmd.nameDynamic && (head.dynamic || head.ansiC) && wrappers.length > 0) {
    f.add('high', 'dynamic-command-word', `${wrappers.join(' ')} runs ${JSON.stringify(head.value)}, a computed command word`);
  }
  if (/[*?[]/.test(head.value) && !head.dynamic) f.add('high', 'dynamic-command-word', `the command word ${JSON.stringify(head.value)} is a glob; the file it matches decides what runs`);
  const name = commandName(head).toLowerCase();
  const args = words.slice(1);
  const text = quoteWords(words.map((w) => w.value));
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  const fromDownload = cmd.pipedFrom.some((c) => DOWNLOADERS.has(firstWordName(c))) || cmd.inner.some((c) => DOWNLOADERS.has(firstWordName(c)));
  const interpreter = isInterpreter(name);

  // Text fed to a shell or interpreter: piped, redirected from a file, heredoc, herestring.
  if (interpreter || name === 'eval' || name === 'source' || name === '.') {
    if (fromDownload) f.add('high', 'download-piped-to-shell', `runs code downloaded from the network with ${name}, unseen`);
    const stdinFile = cmd.redirects.find((r) => r.op === '<');
    if (cmd.pipedFrom.length > 0 && readsProgramFromStdin(name, args)) f.add('high', 'piped-into-shell', `pipes text into ${name}, which runs it as a program; Baton cannot see what the text will be`);
    if (stdinFile && readsProgramFromStdin(name, args)) f.add('high', 'piped-into-shell', `feeds ${stdinFile.target.value} to ${name} as a program`);
    if (cmd.stdin) {
      const lang = languageOf(name);
      if (SHELLS.has(name)) {
        f.add('high', 'text-fed-to-shell', `feeds text to ${name} through a ${cmd.stdin.kind}; a shell reading stdin runs whatever it says`);
        if (!cmd.stdin.dynamic) analyseShellCode(cmd.stdin.text, `${name} <<`, scope);
      } else if (lang && readsProgramFromStdin(name, args)) {
        if (cmd.stdin.dynamic) f.add('medium', 'inline-code-unseen', `${name} runs a ${cmd.stdin.kind} whose text depends on variables or substitutions`);
        inspectCode(lang, cmd.stdin.text, `${name} (${cmd.stdin.kind})`, pc, f);
      }
    }
  }
  if (viaXargs && interpreter) f.add('high', 'piped-into-shell', `xargs runs ${name} with arguments read from stdin`);

  if (name === 'eval') {
    f.add('high', 'eval', 'eval runs text as a command; Baton treats what it runs as unknown');
    if (args.every((w) => !w.dynamic)) analyseShellCode(args.map((w) => w.value).join(' '), 'eval', scope);
  } else if (SHELLS.has(name)) {
    const code = argAfter(args, ['-c']);
    if (code) {
      if (code.dynamic) f.add('high', 'dynamic-shell-code', `${name} -c runs ${JSON.stringify(code.value)}, text Baton cannot see`);
      else analyseShellCode(code.value, `${name} -c`, scope);
    } else {
      const script = flagsOf(args).operands[0];
      if (script?.dynamic) f.add('high', 'dynamic-shell-code', `${name} runs ${script.value}, a script Baton cannot see`);
    }
  } else if (name === 'source' || name === '.') {
    if (args[0]?.dynamic || /^\/(dev\/stdin|dev\/fd\/\d+|proc\/self\/fd\/\d+)$/.test(args[0]?.value ?? '')) f.add('high', 'dynamic-shell-code', `${name} runs ${args[0]!.value}, a script Baton cannot see`);
  } else if (name === 'su' || name === 'runuser') {
    // su [options] [-c command] [user]: the command runs as that user (root by default).
    const code = argAfter(args, ['-c', '--command']);
    f.add(code ? 'medium' : 'high', code ? 'runs-as-root' : 'root-shell', code ? `${name} -c runs a command as another user` : `${name} opens a shell as another user (root by default)`);
    if (code?.dynamic) f.add('high', 'dynamic-shell-code', `${name} -c runs ${JSON.stringify(code.value)}, text Baton cannot see`);
    else if (code) analyseShellCode(code.value, `${name} -c`, scope);
  } else if (name === 'alias' || name === 'trap') {
    // Their text is shell code that runs later: read it like any other command.
    for (const a of name === 'alias' ? args.map((w) => ({ ...w, value: w.value.replace(/^[^=]*=/, '') })) : args.slice(0, 1)) {
      if (a.dynamic) f.add('high', 'dynamic-shell-code', `${name} defines ${JSON.stringify(a.value)}, code Baton cannot see`);
      else analyseShellCode(a.value, name, scope);
    }
  } else if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk') {
    const program = args.find((w) => !w.value.startsWith('-'));
    if (program && /\bsystem\s*\(|\|\s*getline|\|&|print[^;}]*\|\s*"/.test(program.value)) f.add('high', 'inline-code-spawns', `${name} runs a program that starts commands (system, pipes)`);
  } else {
    const lang = languageOf(name);
    if (lang) {
      const code = argAfter(args, CODE_FLAGS[lang]) ?? (name === 'deno' && args[0]?.value === 'eval' ? args[1] ?? null : null);
      if (code) {
        if (code.dynamic) f.add('medium', 'inline-code-unseen', `${name} runs inline code built from variables or substitutions; Baton cannot see it`);
        inspectCode(lang, code.value, `${name} ${args[0]?.value ?? ''}`.trim(), pc, f);
        // perl -pi -e / ruby -i: the code edits the operands in place.
        if ((lang === 'perl' || lang === 'ruby') && args.some((w) => /^-[a-zA-Z]*i/.test(w.value))) {
          const after = args.slice(args.indexOf(code) + 1).filter((w) => !w.value.startsWith('-'));
          for (const t of after) checkWrite(t, scope, `${name} -i`);
        }
      } else {
        const script = flagsOf(args).operands[0];
        if (script?.value === '<(…)') f.add('high', 'dynamic-shell-code', `${name} runs a program produced by a process substitution, unseen`);
        else if (script?.dynamic) f.add('medium', 'inline-code-unseen', `${name} runs ${script.value}, a script Baton cannot name`);
      }
    }
  }

  if (DELETE_COMMANDS.has(name)) {
    const { short, long, operands } = flagsOf(args);
    const recursive = short.has('r') || short.has('R') || long.has('--recursive') || name === 'rmdir';
    if (viaXargs) f.add(recursive ? 'high' : 'medium', recursive ? 'recursive-delete-outside-workspace' : 'delete-from-stdin', `xargs ${name}${recursive ? ' -r' : ''} deletes whatever paths arrive on stdin; Baton cannot see them`);
    checkDelete(name, operands, recursive && name !== 'rmdir', scope);
  }
  if (name === 'find') checkFind(args, scope);
  if (name === 'git') checkGit(args, f);
  if (['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'].includes(name)) {
    const { short, long, operands } = flagsOf(args);
    if (short.has('R') || long.has('--recursive')) {
      const inside = operands.slice(1).every((o) => targetsOf(o, pc).every((t) => t.place === 'inside'));
      f.add(inside && !args.some((w) => /777|a\+w|o\+w/.test(w.value)) ? 'medium' : 'high', 'recursive-permission-change', `${name} -R changes ownership or permissions of a whole tree`);
    }
    if (args.some((w) => /^[ugoa]*[+=][rwxXt]*s|^[2467]\d{3}$/.test(w.value))) f.add('high', 'setuid', `${name} sets the setuid/setgid bit`);
    checkWrites(operands.slice(1), scope, name);
  }
  if (WRITES_OPERANDS.has(name)) checkWrites(flagsOf(args).operands, scope, name);
  if (WRITES_LAST.has(name)) checkCopy(name, args, scope);
  if (name === 'sed' && args.some((w) => /^-[a-zA-Z]*i/.test(w.value) || w.value.startsWith('--in-place'))) {
    const ops = flagsOf(args).operands;
    const scriptGiven = args.some((w) => w.value === '-e' || w.value === '-f' || w.value.startsWith('--expression'));
    for (const t of ops.slice(scriptGiven ? 0 : 1)) checkWrite(t, scope, 'sed -i');
  }
  if (name === 'dd') {
    const of = args.find((w) => w.value.startsWith('of='));
    if (of) checkWrite({ value: of.value.slice(3), dynamic: of.dynamic }, scope, 'dd');
  }
  if (DOWNLOADERS.has(name)) checkDownloader(name, args, cmd, scope);
  if (name === 'tar' || name === 'unzip' || name === 'bsdtar' || name === '7z') checkExtract(name, args, scope);
  if (['nc', 'ncat', 'netcat', 'socat', 'telnet'].includes(name)) {
    const line = args.map((w) => w.value).join(' ');
    if (/(^|\s)-(e|c)\s|--(exec|sh-exec|lua-exec)|\b(exec|system):/i.test(line) || cmd.pipedFrom.some((c) => SHELLS.has(firstWordName(c)))) f.add('high', 'reverse-shell', `${name} ${line.slice(0, 60)} connects a shell to the network`);
    else f.add('medium', 'raw-network', `${name} opens a raw network connection`);
  }
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'rsync') {
    const line = args.map((w) => w.value).join(' ');
    if (/(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand)\s*=?/i.test(line) || (name === 'rsync' && /(^|\s)(-e|--rsh)[= ]\S*(sh -c|bash|\$\()/.test(line))) f.add('high', 'ssh-runs-command', `${name} is told to run a local command (ProxyCommand, LocalCommand or -e)`);
  }
  if (name === 'ssh') {
    const { operands } = flagsOf(args);
    if (args.some((w) => /^-[a-zA-Z]*R/.test(w.value))) f.add('medium', 'remote-command', 'ssh -R opens a tunnel from a remote machine into this one');
    if (operands.length >= 2) f.add('medium', 'remote-command', `ssh runs a command on ${operands[0]!.value}`);
  }
  if (name.startsWith('mkfs') || SYSTEM_DESTRUCTIVE.has(name)) f.add('high', 'system-destructive', `${name} can destroy a disk or stop the machine`);
  if (['kill', 'pkill', 'killall'].includes(name) && args.some((w) => w.value === '-1' || w.value === '1' || w.value === '-9' && args.some((x) => x.value === '-1'))) f.add('high', 'system-destructive', `${name} ${args.map((w) => w.value).join(' ')} signals every process or init`);
  if (name === 'history' && args.some((w) => w.value === '-c')) f.add('medium', 'cover-tracks', 'history -c erases the shell history');
  if (name === 'unset' && args.some((w) => w.value === 'HISTFILE')) f.add('medium', 'cover-tracks', 'unset HISTFILE hides the commands that follow');
  if (name === 'alias' && args.some((w) => /^(sudo|ls|cd|git|ssh|rm)=/.test(w.value))) f.add('medium', 'alias', 'alias redefines a common command');
  checkFamilies(name, args, text, pc, f);
}

function checkFind(args: Word[], scope: ShellScope): void {
  const values = args.map((w) => w.value);
  const firstExpr = values.findIndex((v) => v.startsWith('-') || v === '(' || v === '!');
  const roots = (firstExpr < 0 ? args : args.slice(0, firstExpr)).filter((w) => !w.value.startsWith('-'));
  const rootWords = roots.length ? roots : [{ value: '.', dynamic: false }];
  if (values.includes('-delete')) checkDelete('find -delete', rootWords, true, scope);
  for (let i = 0; i < values.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(values[i]!)) continue;
    let end = i + 1;
    while (end < values.length && values[end] !== ';' && values[end] !== '+' && values[end] !== '\\;') end++;
    const inner = args.slice(i + 1, end);
    const innerName = commandName(unwrap(inner).words[0]).toLowerCase();
    // The command runs once per match: `{}` stands for any path under the roots.
    const expanded: Word[] = inner.flatMap((w) => (w.value === '{}' ? rootWords : [w]));
    if (DELETE_COMMANDS.has(innerName)) {
      const { short, long } = flagsOf(inner.slice(1));
      checkDelete(`find -exec ${innerName}`, rootWords, true, scope);
      if (!(short.has('r') || short.has('R') || long.has('--recursive'))) continue;
    }
    const fake: Command = { words: expanded, nameDynamic: expanded[0]?.dynamic ?? false, redirects: [], stdin: null, pipedFrom: [], inner: [], text: quoteWords(expanded.map((w) => w.value)) };
    analyseCommand(fake, scope);
    i = end;
  }
}

/** Whole-line rules: secrets that reach the network, downloads that are then run, SQL in heredocs. */
function analyseLine(text: string, commands: Command[], scope: ShellScope): void {
  const names = commands.map(firstWordName);
  // Bounded and anchored: an unbounded back-reference is quadratic on one long word.
  if (/:\s*\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}/.test(text) || /(?:^|[^\w])(\w{1,64})\s*\(\)\s*\{[^}]{0,200}\b\1\s*\|\s*\1\s*&/.test(text)) scope.f.add('high', 'system-destructive', 'defines a fork bomb, which exhausts the machine');
  if (/\/dev\/(tcp|udp)\//.test(text)) scope.f.add('high', 'reverse-shell', 'uses /dev/tcp or /dev/udp, a raw network socket as a file (the classic reverse shell)');
  const senders = commands.filter((c, i) => NETWORK_SENDERS.has(names[i]!) || c.redirects.some((r) => /^\/dev\/(tcp|udp)\//.test(r.target.value)));
  if (senders.length > 0) {
    const mentionsSecret = commands.some((c) => {
      const rest = c.words.map((x) => x.value).filter((v) => !/^[A-Za-z_]\w*=/.test(v) && !v.startsWith('-'));
      if (rest.length > 0 && rest.every((v) => ENV_DUMPERS.has(v))) return true;
      return c.words.slice(1).some((w) => isSecretPath(w.value) || targetsOf(w, scope.pc).some((t) => t.place !== 'unknown' && isSecretPath(t.path))) || c.redirects.some((r) => r.op === '<' && isSecretPath(r.target.value));
    }) || /(~|\$HOME)\/\.ssh\/|id_(rsa|ed25519|ecdsa)|\.aws\/credentials|\/etc\/shadow/.test(text) || /\$\{?\w*(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL)\w*/i.test(text);
    if (mentionsSecret) scope.f.add('high', 'exfiltration', 'reads secrets (keys, credentials, the environment) and sends data over the network in the same command');
  }
  // git clone fetches code too: `git clone … && ./install.sh` runs what it fetched.
  const download = commands.findIndex((c, i) => DOWNLOADERS.has(names[i]!) || (names[i] === 'git' && unwrap(c.words).words.some((w) => w.value === 'clone')));
  if (download >= 0) {
    const runs = commands.slice(download + 1).some((c, k) => {
      const n = names[download + 1 + k]!;
      const w = unwrap(c.words).words;
      return isInterpreter(n) && w.length > 1 || /^\.{0,2}\//.test(w[0]?.value ?? '') || (n === 'chmod' && w.some((x) => /\+x|[75]\d\d/.test(x.value)));
    });
    if (runs) scope.f.add('high', 'download-and-run', 'downloads something and then runs it');
  }
  if (names.some((n) => DB_CLIENTS.has(n)) && DESTRUCTIVE_SQL.some((re) => re.test(text))) scope.f.add('high', 'destructive-sql', 'sends a destructive SQL statement (DROP, TRUNCATE, DELETE or UPDATE without WHERE) to a database client');
}

/** Applies `cd`/`pushd`/`popd` to the running cwd; returns true when the command was one. */
function changeDirectory(cmd: Command, scope: ShellScope): boolean {
  const { words } = unwrap(cmd.words);
  const name = commandName(words[0]);
  if (!['cd', 'pushd', 'popd', 'chdir'].includes(name)) return false;
  const operands = flagsOf(words.slice(1)).operands;
  if (name === 'popd' || operands[0]?.value === '-') scope.pc = { ...scope.pc, cwd: null };
  else if (operands.length === 0) scope.pc = { ...scope.pc, cwd: scope.pc.home ?? null };
  else {
    const t = targetsOf(operands[0]!, scope.pc)[0]!;
    scope.pc = { ...scope.pc, cwd: t.place === 'unknown' ? null : t.path };
  }
  return true;
}

export function analyseShell(text: string, scope: ShellScope, via = ''): void {
  const { f } = scope;
  if (scope.depth > MAX_SHELL_NESTING) {
    f.add('high', 'too-complex', `the command nests shells or substitutions more than ${MAX_SHELL_NESTING} deep; Baton cannot check it`);
    return;
  }
  if (text.length > MAX_COMMAND_CHARS) {
    f.add('high', 'too-large', `the command is ${text.length} characters, more than Baton checks (${MAX_COMMAND_CHARS})`);
    return;
  }
  const script = readShell(text);
  if (!script) {
    f.add('high', 'parser-not-loaded', 'policy parser not loaded: Baton cannot read the command, so it counts as high risk');
    return;
  }
  // Unknown means ask loudly: text the bash grammar cannot read could hide anything.
  if (script.truncated) f.add('high', 'too-complex', `the command holds more than ${MAX_SHELL_COMMANDS} commands; Baton cannot check them all`);
  if (script.hasError) f.add('high', 'unparsed-syntax', `part of the command${via ? ` (in ${via})` : ''} is not valid shell syntax; Baton cannot tell what bash would run`);
  // A copy: `cd` inside `bash -c` must not move the caller's cwd.
  const local: ShellScope = { ...scope, pc: { ...scope.pc } };
  for (const cmd of script.commands) {
    if (changeDirectory(cmd, local)) continue;
    analyseCommand(cmd, local);
  }
  analyseLine(text, script.commands, local);
}
