/**
 * `baton handoff` on its own: bin/baton.js runs this bundle (dist/cli/baton-handoff.cjs) for a
 * handoff, so the terminal assistant's hand-over does not read, deserialize and start the whole
 * CLI (every command, the policy grammar, the browser host). The program is the one index.ts
 * builds for `handoff` (the same registerHandoff on the same newProgram), so the output, the
 * help and the exit codes cannot differ between the two bundles.
 */
import { registerHandoff } from './commands/handoff.js';
import { newProgram, runProgram } from './program.js';

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, async (commandName) => {
    if (commandName !== 'handoff') throw new Error(`the handoff bundle runs only \`baton handoff\`, not "${commandName ?? ''}"`);
    const program = newProgram();
    registerHandoff(program);
    return program;
  });
}
