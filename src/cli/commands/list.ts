import { Option, type Command } from 'commander';
import { countItems, cwdFilterOf, type ListGroup } from '../../core/importers/candidate-list.js';
import { writeListJson } from '../../core/importers/list-json.js';
import { CLI_JSON_VERSION, createOutput, EXIT } from '../output.js';
import { terminalField } from '../terminal-text.js';
import { fdJsonSink, readerLeft } from './fd-copy.js';
import { printHostListing } from './list-host.js';
import { loadListing } from './list-groups.js';

/** Lines a group header and the footer take besides the session rows. */
const SCREEN_OVERHEAD_LINES = 4;
const STDOUT_FD = 1;
/** Rows shown to a person when stdout is not a terminal and no --limit is given. */
export const DEFAULT_HUMAN_LIMIT = 50;

interface ListFlags {
  archived?: boolean;
  agents: boolean;
  json?: boolean;
  limit?: string;
  cwd?: string;
  source?: 'claude' | 'codex' | 'baton';
  host: boolean;
}

function humanLimit(): number {
  const rows = process.stdout.isTTY ? process.stdout.rows : 0;
  return rows > SCREEN_OVERHEAD_LINES * 2 ? rows - SCREEN_OVERHEAD_LINES * 2 : DEFAULT_HUMAN_LIMIT;
}

function humanText(groups: readonly ListGroup[], shown: number, total: number, notes: readonly string[]): string {
  if (total === 0) return 'No sessions yet. Hand one off with: baton handoff --cwd . --title "…" --messages session.jsonl';
  const lines = groups.map((group) =>
    [
      `${terminalField(group.cwd)}  (${group.items.length})`,
      ...group.items.map((item) => {
        const s = item.row();
        return `  ${terminalField(s.id)}  ${terminalField(s.updatedAt)}  ${s.messageCount} msgs  [${terminalField(s.source)}]${'archived' in s && s.archived ? '  [archived]' : ''}  ${terminalField(s.title)}`;
      }),
    ].join('\n'),
  );
  const more = total > shown ? [`… ${total - shown} more (${total} in all); use --limit N, --cwd DIR or --json`] : [];
  return [...lines, ...more, ...notes.map((n) => `note: ${terminalField(n)}`)].join('\n\n');
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list resume candidates grouped by working directory, newest first: Baton sessions (from the index) and Claude Code / Codex sessions')
    .option('--archived', 'include archived sessions')
    .option('--no-agents', 'only Baton sessions (skip the Claude Code / Codex scan)')
    .option('--json', 'print one versioned JSON object, streamed (all sessions unless --limit)')
    .option('--limit <n>', 'show at most N sessions, newest groups first (default: a screenful for people, all for --json)')
    .option('--cwd <dir>', 'only sessions in this directory or below it')
    .addOption(new Option('--source <tool>', 'only sessions of one origin').choices(['claude', 'codex', 'baton']))
    .option('--no-host', 'do not ask a running Baton host; scan here')
    .action(async (flags: ListFlags) => {
      const out = createOutput(!!flags.json);
      const limit = flags.limit === undefined ? (flags.json ? Infinity : humanLimit()) : /^\d+$/.test(flags.limit) ? Number(flags.limit) : NaN;
      if (!Number.isFinite(limit) && limit !== Infinity) {
        out.problem('list', 'BAD_ARGUMENT', `--limit takes a whole number, not "${flags.limit}"`);
        process.exitCode = EXIT.usage;
        return;
      }
      const filter = { cwd: flags.cwd === undefined ? undefined : cwdFilterOf(flags.cwd), source: flags.source };

      // A running host holds the candidates warm: ask it first (one socket round trip per page).
      const askHost = flags.host && !flags.archived;
      // The host rendered exactly this document: copied to stdout as it is read.
      // process.stdout is built only if a host answers (its stream loads node:net for a pipe).
      const stdout = { write: (chunk: string | Uint8Array, done: (error?: Error | null) => void) => process.stdout.write(chunk, done) };
      if (askHost && flags.json && (await printHostListing({ agents: flags.agents, filter, limit: Number.isFinite(limit) ? limit : undefined }, stdout))) return;
      const { groups, total, notes, agentScan } = await loadListing({ agents: flags.agents, archived: !!flags.archived, host: askHost && !flags.json, filter, limit: Number.isFinite(limit) ? limit : undefined });
      const shown = countItems(groups);
      if (flags.json) {
        try {
          await writeListJson(fdJsonSink(STDOUT_FD), { version: CLI_JSON_VERSION, command: 'list', ok: true }, groups, { total, shown, notes, agentScan });
        } catch (error) {
          // A reader that stopped reading (`| head`) has what it wanted: not an error of the listing.
          if (!readerLeft(error)) throw error;
        }
      } else out.result('list', {}, () => humanText(groups, shown, total, notes));
    });
}
