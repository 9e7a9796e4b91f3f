import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../core/version.js';
import { registerHandoff } from './commands/handoff.js';
import { registerList } from './commands/list.js';
import { registerShow } from './commands/show.js';
import { registerServe } from './commands/serve.js';
import { registerResume } from './commands/resume.js';
import { registerDoctor } from './commands/doctor.js';
import { registerStats } from './commands/stats.js';
import { registerApprove } from './commands/approve.js';
import { registerTask } from './commands/task.js';
import { EXIT } from './output.js';

export function buildProgram(): Command {
  const program = new Command()
    .name('baton')
    .description('Hand an AI coding session from the terminal to the Baton desktop app, and back.')
    .version(BATON_VERSION, '-v, --version')
    .showHelpAfterError('(run baton --help for usage)')
    .exitOverride();
  registerHandoff(program);
  registerList(program);
  registerShow(program);
  registerServe(program);
  registerResume(program);
  registerDoctor(program);
  registerStats(program);
  registerApprove(program);
  registerTask(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    process.stderr.write(`baton: ${(error as Error).message}\n`);
    process.exitCode = EXIT.failure;
  }
}
