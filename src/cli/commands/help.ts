import { Option, type Command } from 'commander';
import { cliMarkdown, commandHelp, findCommand } from '../help/manual.js';
import { EXIT } from '../output.js';

/**
 * `baton help [command...]`: commander's help for the command plus examples (src/cli/help).
 * `--markdown` prints docs/cli.md (npm run docs:cli). Replaces commander's implicit help command.
 */
export function registerHelp(program: Command): void {
  program
    .command('help [command...]')
    .description('show help for a command, with examples')
    .addOption(new Option('--markdown', 'print the whole manual as Markdown (docs/cli.md)').hideHelp())
    .action(async (path: string[], flags: { markdown?: boolean }) => {
      // Every command, whatever this process loaded: help needs their definitions.
      const { buildProgram } = await import('../index.js');
      const full = await buildProgram();
      if (flags.markdown) {
        process.stdout.write(cliMarkdown(full));
        return;
      }
      if (path.length === 0) {
        process.stdout.write(`${full.helpInformation()}\nRun baton help <command> for its options and examples.\n`);
        return;
      }
      const command = findCommand(full, path);
      if (!command) {
        process.stderr.write(`baton help: no command "${path.join(' ')}" (run baton help for the list)\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      process.stdout.write(commandHelp(command, path.join(' ')));
    });
}
