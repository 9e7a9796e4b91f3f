import type { Command } from 'commander';
import { groupSessions } from '../../shared/resume-groups.js';
import { candidateRow } from '../../shared/agents.js';
import { scanAgentSessions } from '../../core/importers/index.js';
import { importersCacheFile } from '../../core/paths.js';
import { notYetImported } from '../../core/handoff/import-agent-session.js';
import { createOutput } from '../output.js';
import { terminalField } from '../terminal-text.js';
import { openCliStore } from '../context.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list resume candidates grouped by working directory: Baton sessions (from the index) and Claude Code / Codex sessions')
    .option('--archived', 'include archived sessions')
    .option('--no-agents', 'only Baton sessions (skip the Claude Code / Codex scan)')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { archived?: boolean; agents: boolean; json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const { dataDir, store } = await openCliStore();
      try {
        const rows = await store.list({ includeArchived: !!flags.archived });
        const scan = flags.agents ? await scanAgentSessions({ env: process.env, cacheFile: importersCacheFile(dataDir) }) : null;
        const candidates = notYetImported(scan?.candidates ?? [], new Set(rows.map((r) => r.id)));
        const groups = groupSessions([...rows, ...candidates.map((c) => candidateRow(c))]);
        const notes = (scan?.candidates ?? []).filter((c) => c.note).map((c) => `${c.path}: ${c.note}`);
        out.result('list', { groups, notes, agentScan: scan ? { files: scan.stats.files, ms: scan.stats.ms } : null }, () => {
          if (groups.length === 0) return 'No sessions yet. Hand one off with: baton handoff --cwd . --title "…" --messages session.jsonl';
          const lines = groups.map((group) =>
            [
              `${terminalField(group.cwd)}  (${group.sessions.length})`,
              ...group.sessions.map((s) => `  ${terminalField(s.id)}  ${terminalField(s.updatedAt)}  ${s.messageCount} msgs  [${terminalField(s.source)}]  ${terminalField(s.title)}`),
            ].join('\n'),
          );
          return [...lines, ...notes.map((n) => `note: ${terminalField(n)}`)].join('\n\n');
        });
      } finally {
        await store.close();
      }
    });
}
