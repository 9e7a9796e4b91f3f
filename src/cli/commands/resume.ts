import type { Command } from 'commander';
import { createOutput, EXIT, type Output } from '../output.js';
import { RESUME_EVENT } from '../../core/handoff/session-durations.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';
import { printToolResume, toolOfRow } from './resume-row.js';
import { groupsOfDocument, type Listing } from './list-document.js';
import { listFromHost } from './list-host.js';
import { PICKER_FIRST_PAGE_ROWS, PICKER_MAX_ROWS } from '../picker/picker-options.js';
import { markPhase } from '../../core/perf/phase-trace.js';

// The store, the scanner and git are imported where used: the picker's first screen from a
// running host needs none of them, and their module init is most of this bundle's start-up.
async function resumeById(id: string, out: Output): Promise<void> {
  const { openCliStore } = await import('../context.js');
  const { store } = await openCliStore();
  try {
    const before = await store.getSession(id);
    const session = await store.claim(id, 'terminal');
    // Ends the span `baton stats` measures after the last accepted handoff of this session.
    await store.appendEvent({ at: new Date().toISOString(), kind: RESUME_EVENT, side: 'terminal', sessionId: id, epoch: session.holder.epoch });
    const last = await store.readMessages(id, { tail: 3 });
    // A session from a remote box (baton ssh, issue 22) continues there: the ssh line, not a local cd.
    const origin = sshOriginOf(session);
    const { commandTargetOf, terminalCommandFor } = await import('../../core/terminal-command.js');
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
}

/**
 * The first screen's listing without a host: the candidate index's newest rows on the quick
 * scan's trust (list-indexed.ts IndexTrust). Also what scripts/build-cli.js runs to warm the
 * resume bundle's code cache, so these functions come compiled from it.
 */
export async function firstScreenListing(): Promise<Listing> {
  return (await import('./list-groups.js')).loadListing({ agents: true, archived: false, host: false, filter: {}, limit: PICKER_MAX_ROWS, trust: 'quick' });
}

/** No id on a terminal: the picker (issue 15). A Claude Code or Codex session is continued with its own tool's command. */
async function resumePicked(out: Output): Promise<void> {
  // The first screen first (a host's small answer, else the candidate index's newest rows, on the
  // quick scan's trust: the confirmed listing replaces them), the whole listing once that is
  // drawn, for type-to-filter.
  // The host is asked first: its socket is connecting before the picker and clack evaluate, and
  // they evaluate (resume-picker.ts loadPrompts) while the host says hello and answers, or while
  // the listing without a host waits on its files. Evaluated first, they held the connect back by
  // their whole evaluation (bench/README.md, "Fourteenth sitting").
  const hosted = listFromHost({ agents: true, filter: {}, limit: PICKER_FIRST_PAGE_ROWS });
  const picker = new Promise<typeof import('../picker/resume-picker.js')>((loaded, failed) => setImmediate(() => import('../picker/resume-picker.js').then(loaded, failed)));
  picker.then((p) => p.loadPrompts()).catch(() => undefined); // a failure is pickSession's to report
  const first = await hosted;
  if (first !== null) markPhase('listing-hosted'); // the host answered: no local scan
  const { groups, total } = first !== null ? groupsOfDocument(first) : await firstScreenListing();
  markPhase('listing');
  const rest = async () => (await (await import('./list-groups.js')).loadListing({ agents: true, archived: false, host: first !== null, filter: {} })).groups;
  const { pickSession } = await picker;
  const row = await pickSession(groups, total, { rest });
  if (row === null) {
    process.exitCode = EXIT.failure;
    return;
  }
  const tool = toolOfRow(row);
  if (!tool) return resumeById(row.id, out);
  printToolResume(row, tool, out);
}

export function registerResume(program: Command): void {
  program
    .command('resume [id]')
    .description('take a session back to the terminal: claims the baton and prints where to continue; without an id, on a terminal, pick one (type to filter)')
    .option('--json', 'print one versioned JSON object (with the latest manifest)')
    .action(async (id: string | undefined, flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      if (id !== undefined) return resumeById(id, out);
      if (flags.json || !process.stdin.isTTY || !process.stdout.isTTY) {
        out.problem('resume', 'BAD_ARGUMENT', 'baton resume needs a session id here (the picker runs on a terminal only); baton list shows the ids');
        process.exitCode = EXIT.usage;
        return;
      }
      await resumePicked(out);
    });
}
