/**
 * `baton resume` with no id (the picker, issue 15) on its own: bin/baton.js runs this bundle
 * (dist/cli/baton-resume.cjs) so the picker's first screen does not wait for the whole CLI to be
 * read and deserialized. The program is the one index.ts builds for `resume` (the same
 * registerResume on the same newProgram), so the output, the help and the exit codes cannot
 * differ between the two bundles.
 */
import { registerResume } from './commands/resume.js';
import { newProgram, runProgram } from './program.js';
import type { ListGroup } from '../core/importers/candidate-list.js';

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, async (commandName) => {
    if (commandName !== 'resume') throw new Error(`the resume bundle runs only \`baton resume\`, not "${commandName ?? ''}"`);
    const program = newProgram();
    registerResume(program);
    return program;
  });
}

export { warmPicker } from './picker/warm-picker.js';
export { firstScreenListing } from './commands/resume.js';

/**
 * The picker's whole listing for type-to-filter, for the hosted first screen's bundle
 * (picker-main.ts) when its host went away after the first page. Loaded on call, as resume.ts does.
 */
export async function loadPickerListing(host: boolean): Promise<readonly ListGroup[]> {
  return (await (await import('./commands/list-groups.js')).loadListing({ agents: true, archived: false, host, filter: {} })).groups;
}
