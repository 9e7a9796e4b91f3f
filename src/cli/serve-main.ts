/**
 * `baton serve` (the browser host, issue 15) on its own: bin/baton.js runs this bundle
 * (dist/cli/baton-serve.cjs) so a new host reads and deserialises the host's code only, not the
 * whole CLI's, and its code cache is warmed by a real host start answering the page's first
 * requests (scripts/build-cli.js warmServeBundle). The program is the one index.ts builds for
 * `serve` (the same registerServe on the same newProgram), so the output, the help and the exit
 * codes cannot differ between the two bundles.
 */
import { registerServe } from './commands/serve.js';
import { newProgram, runProgram } from './program.js';

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, async (commandName) => {
    if (commandName !== 'serve') throw new Error(`the serve bundle runs only \`baton serve\`, not "${commandName ?? ''}"`);
    const program = newProgram();
    registerServe(program);
    return program;
  });
}
