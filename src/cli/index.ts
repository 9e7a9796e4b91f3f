import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../core/version.js';
import { passphraseRefused } from '../core/store/at-rest/passphrase-refusal.js';
import { createOutput, EXIT } from './output.js';
import { terminalLines } from './terminal-text.js';

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
  ssh: async () => (await import('./commands/ssh.js')).registerSsh,
  resume: async () => (await import('./commands/resume.js')).registerResume,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  stats: async () => (await import('./commands/stats.js')).registerStats,
  approve: async () => (await import('./commands/approve.js')).registerApprove,
  task: async () => (await import('./commands/task.js')).registerTask,
  policy: async () => (await import('./commands/policy.js')).registerPolicy,
  install: async () => (await import('./commands/install.js')).registerInstall,
  uninstall: async () => (await import('./commands/install.js')).registerUninstall,
  completion: async () => (await import('./commands/completion.js')).registerCompletion,
  help: async () => (await import('./commands/help.js')).registerHelp,
  relay: async () => (await import('./commands/relay.js')).registerRelay,
  device: async () => (await import('./commands/device.js')).registerDevice,
  archive: async () => (await import('./commands/archive.js')).registerArchive,
  unarchive: async () => (await import('./commands/archive.js')).registerUnarchive,
  export: async () => (await import('./commands/bundle.js')).registerExport,
  import: async () => (await import('./commands/bundle.js')).registerImport,
  delete: async () => (await import('./commands/delete.js')).registerDelete,
  purge: async () => (await import('./commands/purge.js')).registerPurge,
  encrypt: async () => (await import('./commands/encrypt.js')).registerEncrypt,
  key: async () => (await import('./commands/encrypt.js')).registerKey,
};

/** The program with the named command, or with all of them (for --help and unknown commands). */
export async function buildProgram(commandName?: string): Promise<Command> {
  const program = new Command()
    .name('baton')
    .description('Hand an AI coding session from the terminal to the Baton desktop app, and back.')
    .version(BATON_VERSION, '-v, --version')
    .showHelpAfterError('(run baton --help for usage)')
    // Commander echoes unknown options and arguments back: they go through the same sanitiser.
    .configureOutput({ writeOut: (text) => process.stdout.write(terminalLines(text)), writeErr: (text) => process.stderr.write(terminalLines(text)) })
    .exitOverride();
  const names = commandName && Object.hasOwn(COMMANDS, commandName) ? [commandName] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv[2])).parseAsync(argv);
    // Whatever the command reported: a passphrase store with no host to give its key exits 6.
    if (passphraseRefused()) process.exitCode = EXIT.locked;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    // A refusal before any command could answer (an unsafe data directory, a store written by a
    // newer Baton): still one JSON object when --json was asked for, so callers parse one stream.
    const code = (error as { code?: unknown }).code;
    if (argv.includes('--json')) {
      createOutput(true).problem(argv[2] ?? 'baton', typeof code === 'string' ? code : 'ERROR', (error as Error).message);
    } else process.stderr.write(`baton: ${terminalLines((error as Error).message)}\n`);
    process.exitCode = passphraseRefused() ? EXIT.locked : EXIT.failure;
  }
}
