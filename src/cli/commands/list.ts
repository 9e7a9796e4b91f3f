import { Option, type Command } from 'commander';
import { scanCandidateIndex } from '../../core/importers/scan.js';
import { countItems, cwdFilterOf, groupItems, itemOfEntry, itemOfRow, limitGroups, type ListGroup, type ListItem } from '../../core/importers/candidate-list.js';
import { writeListJson } from '../../core/importers/list-json.js';
import type { IndexEntry } from '../../core/importers/candidate-index.js';
import type { IndexRow } from '../../shared/session.js';
import { importersCacheFile } from '../../core/paths.js';
import { importedSessionId } from '../../core/handoff/import-agent-session.js';
import { CLI_JSON_VERSION, createOutput, EXIT } from '../output.js';
import { terminalField } from '../terminal-text.js';
import { openCliStore } from '../context.js';
import { listFromHost, printHostListing } from './list-host.js';

/** Lines a group header and the footer take besides the session rows. */
const SCREEN_OVERHEAD_LINES = 4;
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

/** Candidates already imported at their current state are listed as their Baton session instead. */
function notImported(entries: IndexEntry[], sessionIds: ReadonlySet<string>): IndexEntry[] {
  // Hashing 20,000 fingerprints costs more than the rest of a warm listing; only do it when needed.
  if (![...sessionIds].some((id) => id.startsWith('imp-'))) return entries;
  return entries.filter((e) => !sessionIds.has(importedSessionId(e.candidate().fingerprint)));
}

function humanText(groups: readonly ListGroup[], shown: number, total: number, notes: readonly string[]): string {
  if (total === 0) return 'No sessions yet. Hand one off with: baton handoff --cwd . --title "…" --messages session.jsonl';
  const lines = groups.map((group) =>
    [
      `${terminalField(group.cwd)}  (${group.items.length})`,
      ...group.items.map((item) => {
        const s = item.row();
        return `  ${terminalField(s.id)}  ${terminalField(s.updatedAt)}  ${s.messageCount} msgs  [${terminalField(s.source)}]  ${terminalField(s.title)}`;
      }),
    ].join('\n'),
  );
  const more = total > shown ? [`… ${total - shown} more (${total} in all); use --limit N, --cwd DIR or --json`] : [];
  return [...lines, ...more, ...notes.map((n) => `note: ${terminalField(n)}`)].join('\n\n');
}

/** The host's `baton list --json` document, back as groups for people's output (a screenful, so small). */
function groupsOfDocument(text: string): { groups: ListGroup[]; total: number; notes: string[] } {
  const doc = JSON.parse(text) as { groups: Array<{ cwd: string; newestAt: number; sessions: IndexRow[] }>; total: number; notes: string[] };
  const groups = doc.groups.map((g) => ({ cwd: g.cwd, newestAt: g.newestAt, items: g.sessions.map(itemOfRow) }));
  return { groups, total: doc.total, notes: doc.notes };
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
      const hostRequest = { agents: flags.agents, filter, limit: Number.isFinite(limit) ? limit : undefined };
      const askHost = flags.host && !flags.archived;
      // The host rendered exactly this document: copied to stdout as it is read.
      if (askHost && flags.json && (await printHostListing(hostRequest, process.stdout))) return;
      const hosted = askHost && !flags.json ? await listFromHost(hostRequest) : null;
      let groups: ListGroup[];
      let total: number;
      let notes: string[];
      let agentScan: { files: number; ms: number; host?: boolean } | null;
      if (hosted !== null) {
        ({ groups, total, notes } = groupsOfDocument(hosted));
        agentScan = null;
      } else {
        const { dataDir, store } = await openCliStore();
        try {
          const rows = await store.list({ includeArchived: !!flags.archived });
          const scan = flags.agents ? await scanCandidateIndex({ env: process.env, cacheFile: importersCacheFile(dataDir) }) : null;
          const entries = notImported(scan?.entries ?? [], new Set(rows.map((r) => r.id)));
          const items: ListItem[] = rows.map(itemOfRow);
          for (const e of entries) items.push(itemOfEntry(e));
          const all = groupItems(items, filter);
          total = countItems(all);
          groups = Number.isFinite(limit) ? limitGroups(all, limit) : all;
          notes = (scan?.entries ?? []).filter((e) => e.note).map((e) => `${e.path}: ${e.note}`);
          agentScan = scan ? { files: scan.stats.files, ms: scan.stats.ms } : null;
        } finally {
          await store.close();
        }
      }
      const shown = countItems(groups);
      if (flags.json) await writeListJson(process.stdout, { version: CLI_JSON_VERSION, command: 'list', ok: true }, groups, { total, shown, notes, agentScan });
      else out.result('list', {}, () => humanText(groups, shown, total, notes));
    });
}
