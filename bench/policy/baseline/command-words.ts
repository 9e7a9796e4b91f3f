import type { Word } from './shell-parse.js';

/**
 * Peels the wrappers that run another command (`sudo`, `env`, `nohup`, `timeout 5`, `xargs`, …)
 * so the rules see the command that really runs, and notes when root was asked for.
 */
export interface Unwrapped {
  words: Word[];
  /** `sudo`/`doas`/`run0`/`pkexec` was in front. */
  asRoot: boolean;
}

/** Wrapper → the options of that wrapper that take a separate argument. */
const WRAPPERS: Record<string, { argOptions: string[]; positional?: number }> = {
  sudo: { argOptions: ['-u', '-g', '-h', '-p', '-C', '-U', '-r', '-t', '-D', '-R', '-T'] },
  doas: { argOptions: ['-u', '-C'] },
  run0: { argOptions: ['-u', '-g', '--user', '--group'] },
  pkexec: { argOptions: ['--user'] },
  env: { argOptions: ['-u', '-C', '-S', '--unset', '--chdir'] },
  nohup: { argOptions: [] },
  time: { argOptions: ['-f', '-o'] },
  nice: { argOptions: ['-n'] },
  ionice: { argOptions: ['-c', '-n', '-p'] },
  command: { argOptions: [] },
  builtin: { argOptions: [] },
  exec: { argOptions: ['-a'] },
  stdbuf: { argOptions: ['-i', '-o', '-e'] },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  xargs: { argOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a'] },
  chronic: { argOptions: [] },
  caffeinate: { argOptions: ['-t', '-w'] },
  watch: { argOptions: ['-n', '-d'] },
  'then': { argOptions: [] },
  'do': { argOptions: [] },
  '!': { argOptions: [] },
  '{': { argOptions: [] },
};
const ROOT = new Set(['sudo', 'doas', 'run0', 'pkexec']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A bound so that `sudo sudo sudo …` cannot loop for long. */
const MAX_WRAPPERS = 16;

/** The last path segment of a command word: `/usr/bin/rm` → `rm`. */
export function commandName(word: Word | undefined): string {
  if (!word) return '';
  const v = word.value;
  return v.slice(v.lastIndexOf('/') + 1);
}

export function unwrap(input: readonly Word[]): Unwrapped {
  let words = [...input];
  let asRoot = false;
  for (let round = 0; round < MAX_WRAPPERS; round++) {
    while (words.length > 0 && ASSIGNMENT.test(words[0]!.value)) words = words.slice(1);
    const name = commandName(words[0]);
    const wrapper = WRAPPERS[name];
    if (!wrapper) break;
    if (ROOT.has(name)) asRoot = true;
    let i = 1;
    let positional = wrapper.positional ?? 0;
    while (i < words.length) {
      const v = words[i]!.value;
      if (v === '--') {
        i++;
        break;
      }
      if (name === 'env' && ASSIGNMENT.test(v)) {
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
  return { words, asRoot };
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
