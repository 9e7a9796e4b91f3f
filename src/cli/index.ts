import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../core/version.js';
import { EXIT } from './output.js';

type Register = (program: Command) => void;

/**
 * Every command, loaded only when it runs: a handoff from a terminal assistant should not pay for
 * the browser host, the importers or the task client at start-up (bench/handoff/cli-process.ts).
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  handoff: async () => (await import('./commands/handoff.js')).registerHandoff,
  list: async () => (await import('./commands/list.js')).registerList,
  show: async () => (await import('./commands/show.js')).registerShow,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  resume: async () => (await import('./commands/resume.js')).registerResume,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  stats: async () => (await import('./commands/stats.js')).registerStats,
  approve: async () => (await import('./commands/approve.js')).registerApprove,
  task: async () => (await import('./commands/task.js')).registerTask,
  relay: async () => (await import('./commands/relay.js')).registerRelay,
  device: async () => (await import('./commands/device.js')).registerDevice,
  archive: async () => (await import('./commands/archive.js')).registerArchive,
  unarchive: async () => (await import('./commands/archive.js')).registerUnarchive,
};

/** The program with the named command, or with all of them (for --help and unknown commands). */
export async function buildProgram(commandName?: string): Promise<Command> {
  const program = new Command()
    .name('baton')
    .description('Hand an AI coding session from the terminal to the Baton desktop app, and back.')
    .version(BATON_VERSION, '-v, --version')
    .showHelpAfterError('(run baton --help for usage)')
    .exitOverride();
  const names = commandName && Object.hasOwn(COMMANDS, commandName) ? [commandName] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv[2])).parseAsync(argv);
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
