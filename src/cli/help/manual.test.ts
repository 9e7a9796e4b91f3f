import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../index.js';
import { EXAMPLES } from './examples.js';
import { allCommands, cliMarkdown } from './manual.js';

const REPO = join(import.meta.dirname, '..', '..', '..');

function baton(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'run.ts'), ...args], { cwd: REPO }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
  );
}

describe('the manual', () => {
  it('docs/cli.md is what `npm run docs:cli` generates from the definitions (run it after changing a command)', async () => {
    const onDisk = await readFile(join(REPO, 'docs', 'cli.md'), 'utf8');
    expect(onDisk).toBe(cliMarkdown(await buildProgram()));
  });

  it('every command has examples, and every example uses only options its command has', async () => {
    const commands = allCommands(await buildProgram());
    for (const { path, command } of commands) {
      const examples = EXAMPLES[path];
      expect(examples?.length, `examples for "baton ${path}" in src/cli/help/examples.ts`).toBeGreaterThan(0);
      const flags = new Set(command.options.flatMap((o) => [o.long, o.short]));
      for (const example of examples!) {
        const at = example.command.indexOf(`baton ${path}`);
        expect(at, `"${example.command}" runs baton ${path}`).toBeGreaterThanOrEqual(0);
        const args = example.command.slice(at + `baton ${path}`.length);
        for (const flag of args.match(/(?<=\s)--[a-z][a-z-]*/g) ?? []) expect(flags.has(flag), `${flag} in "${example.command}"`).toBe(true);
      }
    }
    expect(Object.keys(EXAMPLES).sort()).toEqual(commands.map((c) => c.path).sort());
  });

  it('`baton help handoff` prints the options and the examples; an unknown command is a usage error', async () => {
    const help = await baton(['help', 'handoff']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: baton handoff [options]');
    expect(help.stdout).toContain('--from <tool>');
    expect(help.stdout).toContain('Examples:\n  # save a conversation');
    const sub = await baton(['help', 'task', 'register']);
    expect(sub.stdout).toContain('Usage: baton task register');
    expect(sub.stdout).toContain('baton task register --command "npm run dev"');
    const unknown = await baton(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no command "nope"');
  });
});
