/**
 * `baton show` on its own: bin/baton.js runs this bundle (dist/cli/baton-show.cjs) for `show`, so
 * printing a session does not read, deserialize and start the whole CLI (issue 20: `show --all
 * --json` of a big session is held to 1.5× a bare JSON.parse of its lines, start-up included).
 * The program is the one index.ts builds for `show` (the same registerShow on the same
 * newProgram), so the output, the help and the exit codes cannot differ between the two bundles.
 */
// First: zod must be configured before any schema is built.
import './zod-jitless.js';
import { registerShow } from './commands/show.js';
import { newProgram, runProgram } from './program.js';

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, async (commandName) => {
    if (commandName !== 'show') throw new Error(`the show bundle runs only \`baton show\`, not "${commandName ?? ''}"`);
    const program = newProgram();
    registerShow(program);
    return program;
  });
}
