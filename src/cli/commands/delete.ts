import type { Command } from 'commander';
import { isValidId } from '../../shared/ids.js';
import { openCliStore } from '../context.js';
import { confirm } from '../confirm.js';
import { createOutput, EXIT, type Output } from '../output.js';

/**
 * `baton delete <id>…`: names what will go and asks (or --yes), refuses a session a running task or
 * a pending approval holds (or --force), then the store's crash-safe delete. Never touches the
 * Claude Code / Codex files a session was imported from.
 */
interface DeleteFlags {
  yes?: boolean;
  force?: boolean;
  json?: boolean;
}

export function registerDelete(program: Command): void {
  program
    .command('delete <session-id...>')
    .description('delete sessions for good: every file, index entry and receipt (asks first; --yes for scripts)')
    .option('--yes', 'do not ask for confirmation')
    .option('--force', 'delete even a session with a running task or a pending approval')
    .option('--json', 'print one versioned JSON object')
    .action(async (ids: string[], flags: DeleteFlags) => {
      process.exitCode = await run(createOutput(!!flags.json), ids, flags);
    });
}

async function run(out: Output, ids: string[], flags: DeleteFlags): Promise<number> {
  const bad = ids.find((id) => !isValidId(id));
  if (bad !== undefined) {
    out.problem('delete', 'BAD_ARGUMENT', `"${bad}" is not a valid session id`);
    return EXIT.usage;
  }
  const { dataDir, store } = await openCliStore();
  try {
    const { planDelete, deleteSessions } = await import('../../core/lifecycle/delete-sessions.js');
    const { formatBytes } = await import('../../core/lifecycle/disk-usage.js');
    const found = [];
    for (const id of ids) found.push(await planDelete(store, dataDir, id).catch(() => undefined));
    const named = found.filter((p) => p !== undefined);
    if (!flags.yes && named.length > 0) {
      const lines = named.map((p) => `  ${p.sessionId}  "${p.title}"  ${p.state}, ${p.messageCount} messages, ${formatBytes(p.bytes)}${p.receipts ? `, ${p.receipts} receipt${p.receipts === 1 ? '' : 's'}` : ''}${p.blockers.length ? `  (in use: ${p.blockers.join('; ')})` : ''}`);
      const ok = await confirm(`This deletes for good, with every message, artifact and receipt:\n${lines.join('\n')}\nDelete ${named.length} session${named.length === 1 ? '' : 's'}?`);
      if (!ok) {
        out.problem('delete', 'NOT_CONFIRMED', process.stdin.isTTY ? 'Nothing was deleted.' : 'Nothing was deleted: there is no terminal to confirm on; pass --yes.', { sessions: named });
        return EXIT.failure;
      }
    }
    const outcome = await deleteSessions(store, dataDir, ids, { force: !!flags.force });
    for (const r of outcome.refused) if (!out.json) process.stderr.write(`baton delete: ${r.message}\n`);
    out.result('delete', { deleted: outcome.deleted, refused: outcome.refused }, () =>
      outcome.deleted.length === 0 ? 'Nothing was deleted.' : outcome.deleted.map((p) => `Deleted session ${p.sessionId} ("${p.title}", ${formatBytes(p.bytes)}).`).join('\n'),
    );
    return outcome.refused.length > 0 ? EXIT.failure : EXIT.ok;
  } finally {
    await store.close();
  }
}
