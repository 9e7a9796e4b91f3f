import type { Findings } from './findings.js';
import type { Command } from './shell-ast.js';
import { isSecretPath, targetsOf, type PathContext, type Target } from './targets.js';
import { flagsOf, type Word } from './words.js';

/**
 * Where commands write and what they delete: redirections, copies and moves, archive extraction,
 * downloads and uploads. Every target is placed with targets.ts (realpath, braces, globs).
 */
export interface ShellScope {
  pc: PathContext;
  f: Findings;
  depth: number;
  /** The workspace root is `/` or the home directory: "inside" protects nothing. */
  broadRoot: boolean;
}

export const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'iwr', 'invoke-webrequest', 'lwp-download', 'lynx', 'axel']);
const HARMLESS_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero', '/dev/fd/1', '/dev/fd/2']);
const SAFE_PLACES = new Set(['inside', 'root']);

/** Operands placed per command (each is a realpath); a longer list is rated high unread. */
export const MAX_TARGETS_PER_COMMAND = 256;

/** checkWrite for each operand, up to MAX_TARGETS_PER_COMMAND. */
export function checkWrites(words: readonly Word[], scope: ShellScope, what: string): void {
  if (words.length > MAX_TARGETS_PER_COMMAND) scope.f.add('high', 'too-complex', `${what} names ${words.length} paths, more than Baton places (${MAX_TARGETS_PER_COMMAND})`);
  for (const w of words.slice(0, MAX_TARGETS_PER_COMMAND)) checkWrite(w, scope, what);
}

export function checkWrite(word: Word, scope: ShellScope, what: string): void {
  if (HARMLESS_SINKS.has(word.value) || /^\d+$|^-$/.test(word.value)) return;
  for (const t of targetsOf(word, scope.pc)) {
    if (/^\/dev\/(tcp|udp)\//.test(t.path) || /^\/dev\/(tcp|udp)\//.test(word.value)) {
      scope.f.add('high', 'reverse-shell', `${what} connects to the network through ${word.value} (a classic reverse shell)`);
      continue;
    }
    if (t.place === 'temp') scope.f.add('medium', 'write-to-temp', `${what} writes to ${t.path}, outside the workspace (a temp dir)`);
    else if (t.place === 'unknown') scope.f.add('high', 'write-outside-workspace', `${what} writes to "${t.path}", which depends on a variable or directory Baton cannot know; it may be outside the workspace ${scope.pc.root}`);
    else if (t.path.startsWith('/dev/')) scope.f.add('high', 'device-write', `${what} writes to the device ${t.path}`);
    else if (!SAFE_PLACES.has(t.place)) scope.f.add('high', 'write-outside-workspace', `${what} writes to ${t.path}, outside the workspace ${scope.pc.root}`);
    if (t.sensitive) scope.f.add('high', 'sensitive-path', `${what} writes to ${t.path}: ${t.sensitive}`);
  }
}


export function checkDelete(cmd: string, all: Word[], recursive: boolean, scope: ShellScope): void {
  const { f } = scope;
  if (all.length > MAX_TARGETS_PER_COMMAND) f.add('high', 'too-complex', `${cmd} names ${all.length} paths, more than Baton places (${MAX_TARGETS_PER_COMMAND})`);
  const operands = all.slice(0, MAX_TARGETS_PER_COMMAND);
  for (const target of operands) {
    const shown = `${cmd} ${recursive ? '-r ' : ''}${target.value}`;
    for (const t of targetsOf(target, scope.pc, false)) {
      if (t.sensitive) f.add('high', 'sensitive-path', `${shown} deletes ${t.path}: ${t.sensitive}`);
      if (t.place === 'inside') {
        if (t.globAll && recursive && scope.pc.root === t.path.replace(/\/[^/]*$/, '')) f.add('high', 'delete-workspace', `${shown} deletes everything in the workspace`);
        else if (recursive) f.add(scope.broadRoot ? 'high' : 'medium', 'recursive-delete', `${shown} deletes a directory tree inside the workspace${scope.broadRoot ? ', which is your whole home or disk' : ''}`);
      } else if (t.place === 'root' || t.place === 'above') {
        if (t.place === 'root' && t.globAll && !recursive) f.add('medium', 'delete-workspace-files', `${shown} deletes every file at the top of the workspace`);
        else f.add('high', 'delete-workspace', `${shown} deletes ${t.path}${t.globAll ? '/*' : ''}, the workspace itself or a folder above it`);
      } else if (t.place === 'unknown') {
        f.add('high', recursive ? 'recursive-delete-outside-workspace' : 'delete-outside-workspace', `${shown} deletes "${target.value}", which depends on a variable, ~ or a directory Baton cannot know, and may be outside the workspace`);
      } else if (t.place === 'temp') {
        f.add('medium', 'delete-in-temp', `${shown} deletes ${t.path} in a temp dir`);
      } else {
        f.add('high', recursive ? 'recursive-delete-outside-workspace' : 'delete-outside-workspace', `${shown} deletes ${t.path}, outside the workspace ${scope.pc.root}`);
      }
    }
  }
}

export function checkCopy(name: string, args: Word[], scope: ShellScope): void {
  const { operands } = flagsOf(args);
  const tIndex = args.findIndex((w) => w.value === '-t' || w.value.startsWith('--target-directory'));
  const dest = tIndex >= 0 ? (args[tIndex]!.value.includes('=') ? { value: args[tIndex]!.value.split('=')[1]!, dynamic: args[tIndex]!.dynamic } : args[tIndex + 1]) : operands.at(-1);
  const sources = tIndex >= 0 ? operands.filter((o) => o !== dest) : operands.slice(0, -1);
  const remote = (w: Word): boolean => /^[\w.@-]+:/.test(w.value) && !w.value.startsWith('/');
  if (dest && operands.length + (tIndex >= 0 ? 1 : 0) >= 2) {
    if (remote(dest)) {
      const secret = sources.some((s) => targetsOf(s, scope.pc).some((t) => isSecretPath(t.path) || isSecretPath(s.value)));
      scope.f.add(secret ? 'high' : 'medium', secret ? 'exfiltration' : 'copies-to-remote', `${name} sends ${sources.map((s) => s.value).join(' ')} to ${dest.value}${secret ? ', which holds secrets' : ''}`);
    } else checkWrite(dest, scope, name);
  }
  if (name === 'mv') for (const src of sources) if (!targetsOf(src, scope.pc, false).every((t) => t.place === 'inside')) checkWrite(src, scope, 'mv (moving away)');
  if (name === 'rsync' && args.some((w) => w.value.startsWith('--delete') || w.value === '--remove-source-files')) {
    const where = dest ? targetsOf(dest, scope.pc) : [];
    scope.f.add(where.every((t) => t.place === 'inside') && dest && !remote(dest) ? 'medium' : 'high', 'rsync-delete', `rsync --delete removes files at ${dest?.value ?? 'the destination'} that the source does not have`);
  }
}

/** `tar -x … -C DIR`, `unzip … -d DIR`: the directory the archive is written into. */
export function checkExtract(name: string, args: Word[], scope: ShellScope): void {
  const values = args.map((w) => w.value);
  const extracting = name === 'unzip' || values.some((v, i) => /^-?[a-zA-Z]*x/.test(v) && (i === 0 || v.startsWith('-')) || v === '--extract' || v === '--get' || (name === '7z' && v === 'x'));
  if (!extracting) return;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const flag = name === 'unzip' ? '-d' : name === '7z' ? null : '-C';
    if (flag && v === flag && args[i + 1]) checkWrite(args[i + 1]!, scope, `${name} (extracting)`);
    else if (v.startsWith('--directory=')) checkWrite({ value: v.slice(12), dynamic: args[i]!.dynamic }, scope, `${name} (extracting)`);
    else if (name === '7z' && v.startsWith('-o')) checkWrite({ value: v.slice(2), dynamic: args[i]!.dynamic }, scope, `${name} (extracting)`);
  }
  if (name !== 'unzip' && values.some((v, i) => v === '--absolute-names' || /^-[a-zA-Z]*P[a-zA-Z]*$/.test(v) || (i === 0 && /^[a-zA-Z]*P[a-zA-Z]*$/.test(v)))) scope.f.add('high', 'write-outside-workspace', `${name} -P extracts absolute paths, anywhere on disk`);
}

export function checkDownloader(name: string, args: Word[], cmd: Command, scope: ShellScope): void {
  const values = args.map((w) => w.value);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (['-o', '--output', '-O', '--output-document', '-P', '--directory-prefix', '--output-dir'].includes(v) && args[i + 1] && !(name === 'curl' && v === '-O')) checkWrite(args[i + 1]!, scope, name);
  }
  // Data flags upload a file only with @file or <file; file flags always name a file.
  const files: string[] = [];
  let uploads = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const eq = v.indexOf('=');
    const flag = v.startsWith('--') && eq > 0 ? v.slice(0, eq) : v;
    const value = v.startsWith('--') && eq > 0 ? v.slice(eq + 1) : values[i + 1] ?? '';
    if (/^(-T|--upload-file|--post-file|--body-file)$/.test(flag)) {
      uploads++;
      files.push(value);
    } else if (/^(-d|--data|--data-binary|--data-raw|--data-urlencode|-F|--form|--json|--post-data|--body)$/.test(flag)) {
      uploads++;
      const m = /^(?:[\w.-]+=)?[@<](.+?)(;.*)?$/.exec(value);
      if (m && flag !== '--data-raw') files.push(m[1]!);
    }
  }
  if (uploads === 0) return;
  const secret = files.some((p) => isSecretPath(p) || targetsOf({ value: p, dynamic: false }, scope.pc).some((t: Target) => isSecretPath(t.path)));
  const fromStdin = files.includes('-') && cmd.pipedFrom.length > 0;
  if (secret) scope.f.add('high', 'exfiltration', `${name} uploads ${files.join(', ')}, which holds secrets`);
  else if (fromStdin) scope.f.add('medium', 'uploads-data', `${name} uploads what the pipe feeds it`);
  else if (files.length > 0) scope.f.add('medium', 'uploads-data', `${name} uploads ${files.join(', ')}`);
  else if (cmd.pipedFrom.length > 0 || args.some((w) => w.dynamic)) scope.f.add('medium', 'uploads-data', `${name} sends data built from other commands`);
}

