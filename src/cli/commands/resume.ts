import type { Command } from 'commander';
import { createOutput, EXIT } from '../output.js';
import { openCliStore } from '../context.js';
import { RESUME_EVENT } from '../../core/handoff/session-durations.js';
import { commandTargetOf, terminalCommandFor } from '../../core/terminal-command.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';

export function registerResume(program: Command): void {
  program
    .command('resume <id>')
    .description('take a session back to the terminal: claims the baton and prints where to continue')
    .option('--json', 'print one versioned JSON object (with the latest manifest)')
    .action(async (id: string, flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const { store } = await openCliStore();
      try {
        const before = await store.getSession(id);
        const session = await store.claim(id, 'terminal');
        // Ends the span `baton stats` measures after the last accepted handoff of this session.
        await store.appendEvent({ at: new Date().toISOString(), kind: RESUME_EVENT, side: 'terminal', sessionId: id, epoch: session.holder.epoch });
        const last = await store.readMessages(id, { tail: 3 });
        // A session from a remote box (baton ssh, issue 22) continues there: the ssh line, not a local cd.
        const origin = sshOriginOf(session);
        const sshLine = origin ? (await terminalCommandFor(commandTargetOf(session))).shellLine : null;
        out.result('resume', { session, previousHolder: before.holder, recentMessages: last, ...(sshLine ? { sshLine } : {}) }, () =>
          [
            `The terminal now holds session ${id} (epoch ${session.holder.epoch}; it was held by ${before.holder.who}#${before.holder.epoch}).`,
            sshLine ? `Its workspace is on ${origin!.host}. Continue there: ${sshLine}` : `Continue in: cd ${JSON.stringify(session.cwd)}`,
            `${session.messageCount} messages. Latest:`,
            ...last.map((m) => `  ${m.role}: ${m.content.split('\n')[0]?.slice(0, 120) ?? ''}`),
          ].join('\n'),
        );
      } catch (error) {
        out.problem('resume', (error as { code?: string }).code ?? 'ERROR', (error as Error).message);
        process.exitCode = EXIT.failure;
      } finally {
        await store.close();
      }
    });
}
