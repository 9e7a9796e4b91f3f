/**
 * `baton list` on its own: bin/baton.js runs this bundle (dist/cli/baton-list-local.cjs) for `list`
 * when no host answered, so a warm listing does not read and deserialize the whole CLI (issue 15:
 * `baton list --json` warm without a host is held to a third of the peers' pickers, and start-up
 * is most of it). The program is the one index.ts builds for `list` (the same registerList on the
 * same newProgram), so the output, the help and the exit codes cannot differ between the bundles.
 */
import { registerList } from './commands/list.js';
import { newProgram, runProgram } from './program.js';

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, async (commandName) => {
    if (commandName !== 'list') throw new Error(`the list bundle runs only \`baton list\`, not "${commandName ?? ''}"`);
    const program = newProgram();
    registerList(program);
    return program;
  });
}
