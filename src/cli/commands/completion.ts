import { Option, type Command } from 'commander';
import { completionSpec } from '../completion/spec.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion/scripts.js';
import { openCliStore } from '../context.js';
import { EXIT } from '../output.js';

/**
 * `baton completion bash|zsh|fish` prints the completion script, generated from every command's
 * commander definition; `baton completion --session-ids` is what the script calls at Tab time.
 */
export function registerCompletion(program: Command): void {
  program
    .command('completion [shell]')
    .description('print the shell completion script for bash, zsh or fish')
    .addOption(new Option('--session-ids', 'print the saved session ids, one a line (used by the scripts)').hideHelp())
    .action(async (shell: string | undefined, flags: { sessionIds?: boolean }) => {
      if (flags.sessionIds) {
        process.exitCode = await printSessionIds();
        return;
      }
      if (!shell || !(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
        process.stderr.write(`baton completion: choose one of ${COMPLETION_SHELLS.join(', ')}${shell ? `, got "${shell}"` : ''}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      // The full program, whatever this process loaded: the script must know every command.
      const { buildProgram } = await import('../index.js');
      process.stdout.write(completionScript(shell as CompletionShell, completionSpec(await buildProgram())));
    });
}

async function printSessionIds(): Promise<number> {
  const { store } = await openCliStore();
  try {
    const rows = await store.list();
    process.stdout.write(rows.map((r) => `${r.id}\n`).join(''));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
