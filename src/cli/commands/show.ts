import type { Command } from 'commander';
import { createOutput, EXIT } from '../output.js';
import { terminalBlock, terminalField } from '../terminal-text.js';
import { openCliStore } from '../context.js';

/** Messages printed by `baton show` unless --all. */
const SHOW_TAIL = 50;

export function registerShow(program: Command): void {
  program
    .command('show <id>')
    .description('show one session and its latest messages')
    .option('--all', 'print every message, not only the last 50')
    .option('--json', 'print one versioned JSON object')
    .action(async (id: string, flags: { all?: boolean; json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const { store } = await openCliStore();
      try {
        const session = await store.getSession(id);
        const messages = await store.readMessages(id, flags.all ? {} : { tail: SHOW_TAIL });
        out.result('show', { session, messages }, () =>
          [
            `${terminalField(session.title)}  (${terminalField(session.id)})`,
            `cwd ${terminalField(session.cwd)}${session.branch ? `  branch ${terminalField(session.branch)}` : ''}  holder ${terminalField(session.holder.who)}#${session.holder.epoch}`,
            '',
            ...messages.map((m) => `[${m.seq}] ${terminalField(m.role)}: ${terminalBlock(m.content)}`),
          ].join('\n'),
        );
      } catch (error) {
        out.problem('show', (error as { code?: string }).code ?? 'ERROR', (error as Error).message);
        process.exitCode = EXIT.failure;
      } finally {
        await store.close();
      }
    });
}
