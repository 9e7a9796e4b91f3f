import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../core/version.js';
import { createOutput, EXIT } from './output.js';
import { terminalLines } from './terminal-text.js';
import { markPhase } from '../core/perf/phase-trace.js';
import { passphraseRefused } from '../core/store/at-rest/passphrase-refusal.js';

/** The `baton` program with no command yet: index.ts adds every command, handoff-main.ts only handoff. */
export function newProgram(): Command {
  return new Command()
    .name('baton')
    .description('Hand an AI coding session from the terminal to the Baton desktop app, and back.')
    .version(BATON_VERSION, '-v, --version')
    .showHelpAfterError('(run baton --help for usage)')
    // Commander echoes unknown options and arguments back: they go through the same sanitiser.
    .configureOutput({ writeOut: (text) => process.stdout.write(terminalLines(text)), writeErr: (text) => process.stderr.write(terminalLines(text)) })
    .exitOverride();
}

/** Builds the program for argv's command and runs it; every refusal ends as an exit code. */
export async function runProgram(argv: string[], build: (commandName?: string) => Promise<Command>): Promise<void> {
  markPhase('main');
  try {
    await (await build(argv[2])).parseAsync(argv);
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
