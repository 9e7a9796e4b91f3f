import type { Command } from 'commander';
import { groupByCwd } from '../../shared/resume-groups.js';
import { createOutput } from '../output.js';
import { openCliStore } from '../context.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list resume candidates, grouped by working directory (reads the index only)')
    .option('--archived', 'include archived sessions')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { archived?: boolean; json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const { store } = await openCliStore();
      try {
        const rows = await store.list({ includeArchived: !!flags.archived });
        const groups = groupByCwd(rows);
        out.result('list', { groups }, () => {
          if (groups.length === 0) return 'No sessions yet. Hand one off with: baton handoff --cwd . --title "…" --messages session.jsonl';
          return groups
            .map((group) =>
              [`${group.cwd}  (${group.sessions.length})`, ...group.sessions.map((s) => `  ${s.id}  ${s.updatedAt}  ${s.messageCount} msgs  [${s.source}]  ${s.title}`)].join('\n'),
            )
            .join('\n\n');
        });
      } finally {
        await store.close();
      }
    });
}
