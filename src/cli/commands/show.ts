import { join } from 'node:path';
import type { Command } from 'commander';
import { createOutput, EXIT } from '../output.js';
import { terminalBlock, terminalField } from '../terminal-text.js';
import { openCliStore } from '../context.js';
import { boundedWrite, writeAllMessagesJson } from './show-all-json.js';
import type { Damage } from '../../shared/session.js';

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
        if (flags.all && flags.json) {
          // Every message of a session of any size: streamed, never held whole (show-all-json.ts).
          try {
            await writeAllMessagesJson(store, id, boundedWrite(process.stdout));
          } catch (error) {
            // The reader went away (`| head`): nothing more can be said to it, and a stack trace would not help.
            if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
            process.exitCode = EXIT.failure;
          }
          return;
        }
        // Messages first: damage this read comes across is recorded in the session before it is shown.
        const messages = await store.readMessages(id, flags.all ? {} : { tail: SHOW_TAIL });
        const session = await store.getSession(id);
        const damage = session.damaged ?? [];
        const notes = session.notes ?? [];
        out.result('show', { session, messages, damage, notes }, () =>
          [
            `${terminalField(session.title)}  (${terminalField(session.id)})`,
            `cwd ${terminalField(session.cwd)}${session.branch ? `  branch ${terminalField(session.branch)}` : ''}  holder ${terminalField(session.holder.who)}#${session.holder.epoch}`,
            ...damageLines(damage, store.sessionDir(id)).map(terminalField),
            ...notes.map((n) => `note: ${terminalField(n)}`),
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

/** One warning per damaged range, naming the side file that holds the bytes (nothing was cut). */
export function damageLines(damage: readonly Damage[], sessionDir: string): string[] {
  if (damage.length === 0) return [];
  return [
    `DAMAGED: ${damage.length} damaged ${damage.length === 1 ? 'part' : 'parts'} of this session's log ${damage.length === 1 ? 'was' : 'were'} skipped; the messages shown are the ones Baton could verify.`,
    ...damage.map((d) => `  ${d.file ?? 'messages.jsonl'}${d.start !== undefined ? ` bytes ${d.start}..${d.end}` : ''}: kept in ${join(sessionDir, d.sideFile)} (found ${d.detectedAt})`),
  ];
}
