import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_TARGETS_PER_COMMAND } from './path-rules.js';
import { assessRisk, initPolicy, MAX_COMMAND_CHARS } from './risk.js';
import { MAX_SHELL_COMMANDS } from './shell-ast.js';

/** Inputs an attacker can make as large as they like: each limit is named and rated high, never skipped. */
beforeAll(async () => {
  await initPolicy();
});
const ctx = { cwd: '/w', workspaceRoot: '/w', home: '/h' };
const rules = (command: string) => assessRisk({ tool: 'Bash', input: { command } }, ctx);

describe('policy limits', () => {
  it.each([
    ['more commands than MAX_SHELL_COMMANDS', 'ls;'.repeat(MAX_SHELL_COMMANDS + 10) + 'rm -rf /', 'too-complex'],
    ['a pipeline longer than MAX_SHELL_COMMANDS', Array(MAX_SHELL_COMMANDS + 10).fill('cat').join(' | '), 'too-complex'],
    ['more operands than MAX_TARGETS_PER_COMMAND', `rm ${Array(MAX_TARGETS_PER_COMMAND + 1).fill('x').join(' ')}`, 'too-complex'],
    ['a command longer than MAX_COMMAND_CHARS', 'a'.repeat(MAX_COMMAND_CHARS + 1), 'too-large'],
    ['bash -c nested past MAX_SHELL_NESTING', Array.from({ length: 10 }).reduce<string>((c) => `bash -c ${JSON.stringify(c)}`, 'ls'), 'too-complex'],
  ])('%s is high (%s)', (_name, command, rule) => {
    const risk = rules(command);
    expect(risk.level).toBe('high');
    expect(risk.reasons.map((r) => r.rule)).toContain(rule);
  });

  it('long words and deep nesting are read, not choked on (no quadratic regex)', () => {
    expect(rules(`echo ${'a'.repeat(60_000)}`).level).toBe('low');
    expect(rules(`python3 -c "${'open('.repeat(5_000)}"`).level).toBe('low');
    expect(rules(`${'$('.repeat(300)}rm -rf /${')'.repeat(300)}`).level).toBe('high');
    expect(rules(`${'('.repeat(1_000)}ls${')'.repeat(1_000)}`).level).toBe('low');
  });
});
