/**
 * Words of a parsed command: wrappers that run another command (`sudo`, `env`, `timeout 5`, …),
 * flags, brace expansion and quoting. Pure; the syntax tree is read in shell-ast.ts.
 */
export interface Word {
  value: string;
  /** Holds an expansion, a substitution or a leading `~` we cannot know the value of. */
  dynamic: boolean;
  /** ANSI-C quoting (`$'\x72\x6d'`): legal, but a way to hide a word from a reader. */
  ansiC?: boolean;
}

export interface Unwrapped {
  words: Word[];
  /** `sudo`/`doas`/`run0`/`pkexec` was in front. */
  asRoot: boolean;
  /** The command's operands come from stdin (`xargs`): unknown targets. */
  viaXargs: boolean;
  /** Wrappers peeled, for the reasons. */
  wrappers: string[];
}

/** Wrapper → the options of that wrapper that take a separate argument. */
const WRAPPERS: Record<string, { argOptions: string[]; positional?: number }> = {
  sudo: { argOptions: ['-u', '-g', '-h', '-p', '-C', '-U', '-r', '-t', '-D', '-R', '-T'] },
  doas: { argOptions: ['-u', '-C'] },
  run0: { argOptions: ['-u', '-g', '--user', '--group'] },
  pkexec: { argOptions: ['--user'] },
  env: { argOptions: ['-u', '-C', '-S', '--unset', '--chdir'] },
  nohup: { argOptions: [] },
  setsid: { argOptions: [] },
  time: { argOptions: ['-f', '-o'] },
  nice: { argOptions: ['-n'] },
  ionice: { argOptions: ['-c', '-n', '-p'] },
  command: { argOptions: [] },
  builtin: { argOptions: [] },
  exec: { argOptions: ['-a'] },
  stdbuf: { argOptions: ['-i', '-o', '-e'] },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  xargs: { argOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'] },
  parallel: { argOptions: ['-j', '-S', '--jobs'] },
  chronic: { argOptions: [] },
  caffeinate: { argOptions: ['-t', '-w'] },
  watch: { argOptions: ['-n', '-d'] },
  unbuffer: { argOptions: [] },
  chroot: { argOptions: [], positional: 1 },
  flock: { argOptions: ['-w', '-E'], positional: 1 },
  strace: { argOptions: ['-o', '-e', '-p', '-s'] },
  ltrace: { argOptions: ['-o', '-e', '-p'] },
  '!': { argOptions: [] },
  busybox: { argOptions: [] },
  // Grouping words that tree-sitter leaves as plain words after a syntax error (`sudo { …; }`).
  '{': { argOptions: [] },
  '(': { argOptions: [] },
  then: { argOptions: [] },
  do: { argOptions: [] },
};
const ROOT = new Set(['sudo', 'doas', 'run0', 'pkexec', 'su']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A bound so that `sudo sudo sudo …` cannot loop for long. */
export const MAX_WRAPPERS = 16;
/** Brace expansion grows fast (`{a,b}{c,d}…`); beyond this many words the word counts as unknown. */
export const MAX_BRACE_EXPANSIONS = 64;

/** The last path segment of a command word: `/usr/bin/rm` → `rm`. */
export function commandName(word: Word | undefined): string {
  if (!word) return '';
  const v = word.value;
  return v.slice(v.lastIndexOf('/') + 1);
}

export function unwrap(input: readonly Word[]): Unwrapped {
  let words = [...input];
  let asRoot = false;
  let viaXargs = false;
  const wrappers: string[] = [];
  for (let round = 0; round < MAX_WRAPPERS; round++) {
    while (words.length > 0 && ASSIGNMENT.test(words[0]!.value)) words = words.slice(1);
    // tree-sitter can leave `{ {` (grouping braces after a wrapper) as one word.
    const name = /^[{(\s]+$/.test(words[0]?.value ?? 'x') ? '{' : commandName(words[0]);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!wrapper) break;
    wrappers.push(name);
    if (ROOT.has(name)) asRoot = true;
    if (name === 'xargs' || name === 'parallel') viaXargs = true;
    let i = 1;
    let positional = wrapper.positional ?? 0;
    while (i < words.length) {
      const v = words[i]!.value;
      if (v === '--') {
        i++;
        break;
      }
      if ((name === 'env' || name === 'sudo') && ASSIGNMENT.test(v)) {
        i++;
        continue;
      }
      if (v.startsWith('-') && v.length > 1) {
        i += wrapper.argOptions.includes(v) ? 2 : 1;
        continue;
      }
      if (name === 'nice' && /^[+-]?\d+$/.test(v)) {
        i++;
        continue;
      }
      if (positional > 0) {
        positional--;
        i++;
        continue;
      }
      break;
    }
    words = words.slice(i);
  }
  return { words, asRoot, viaXargs, wrappers };
}

/** Short flags, expanded: `-rf` → r, f. Long flags kept whole. Stops at `--`. */
export function flagsOf(words: readonly Word[]): { short: Set<string>; long: Set<string>; operands: Word[] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: Word[] = [];
  let ended = false;
  for (const w of words) {
    if (!ended && w.value === '--') ended = true;
    else if (!ended && w.value.startsWith('--')) long.add(w.value.split('=')[0]!);
    else if (!ended && w.value.startsWith('-') && w.value.length > 1) for (const ch of w.value.slice(1)) short.add(ch);
    else operands.push(w);
  }
  return { short, long, operands };
}

/**
 * Bash brace expansion of a literal word: `{~,/etc}` → `~`, `/etc`; `a{1..3}` → a1 a2 a3.
 * Returns null when the result would exceed MAX_BRACE_EXPANSIONS (the caller treats it as unknown).
 */
export function expandBraces(value: string): string[] | null {
  let out = [value];
  for (let guard = 0; guard < 16; guard++) {
    let changed = false;
    const next: string[] = [];
    for (const v of out) {
      const m = /\{([^{}]*)\}/.exec(v);
      if (!m) {
        next.push(v);
        continue;
      }
      const inner = m[1]!;
      let parts: string[] | null = null;
      if (inner.includes(',')) parts = inner.split(',');
      else {
        const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner);
        if (range) {
          const numeric = /\d/.test(range[1]!);
          const a = numeric ? Number(range[1]) : range[1]!.charCodeAt(0);
          const b = numeric ? Number(range[2]) : range[2]!.charCodeAt(0);
          if (Math.abs(b - a) >= MAX_BRACE_EXPANSIONS) return null;
          parts = [];
          for (let k = a; a <= b ? k <= b : k >= b; k += a <= b ? 1 : -1) parts.push(numeric ? String(k) : String.fromCharCode(k));
        }
      }
      if (!parts) {
        // `{}` or `{x}` stays literal; hide it from the regex so the loop moves on
        next.push(v.slice(0, m.index) + '\u0000' + inner + '\u0001' + v.slice(m.index + m[0].length));
        changed = true;
        continue;
      }
      changed = true;
      for (const p of parts) next.push(v.slice(0, m.index) + p + v.slice(m.index + m[0].length));
      if (next.length > MAX_BRACE_EXPANSIONS) return null;
    }
    out = next;
    if (!changed) break;
  }
  return out.map((v) => v.replace(/\u0000/g, '{').replace(/\u0001/g, '}'));
}

/** Joins words back into a command line, quoting where the shell would need it. */
export function quoteWords(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
