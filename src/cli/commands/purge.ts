import type { Command } from 'commander';
import { openCliStore } from '../context.js';
import { confirm } from '../confirm.js';
import { createOutput, EXIT, type Output } from '../output.js';

/**
 * `baton purge`: one-click cleanup. Lists what it would remove with sizes (--dry-run stops there),
 * asks (or --yes), removes it and leaves an empty, valid data directory.
 */
interface PurgeFlags {
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
}

export function registerPurge(program: Command): void {
  program
    .command('purge')
    .description('remove every session, archive, receipt, event, cache and the relay settings (lists sizes; asks first)')
    .option('--dry-run', 'list what would be removed, with sizes, and remove nothing')
    .option('--yes', 'do not ask for confirmation')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: PurgeFlags) => {
      process.exitCode = await run(createOutput(!!flags.json), flags);
    });
}

async function run(out: Output, flags: PurgeFlags): Promise<number> {
  const { dataDir, store } = await openCliStore();
  try {
    const { planPurge, purge } = await import('../../core/lifecycle/purge.js');
    const { formatBytes } = await import('../../core/lifecycle/disk-usage.js');
    const plan = await planPurge(store, dataDir);
    const listing = () =>
      [
        ...plan.items.map((i) => `  ${i.kind.padEnd(9)} ${formatBytes(i.bytes).padStart(9)}  ${i.name}${i.title ? `  "${i.title}"` : ''}`),
        `  ${'total'.padEnd(9)} ${formatBytes(plan.bytes).padStart(9)}`,
        `Kept: ${plan.kept.join(', ')}.`,
      ].join('\n');
    if (flags.dryRun || plan.items.length === 0) {
      out.result('purge', { dryRun: !!flags.dryRun, dataDir, items: plan.items, bytes: plan.bytes, kept: plan.kept, removed: [] }, () =>
        plan.items.length === 0 ? `Nothing to remove in ${dataDir}.` : `baton purge would remove from ${dataDir}:\n${listing()}`,
      );
      return EXIT.ok;
    }
    if (!flags.yes && !(await confirm(`This removes from ${dataDir}, for good:\n${listing()}\nRemove all of it?`))) {
      out.problem('purge', 'NOT_CONFIRMED', process.stdin.isTTY ? 'Nothing was removed.' : 'Nothing was removed: there is no terminal to confirm on; pass --yes (or --dry-run to list).');
      return EXIT.failure;
    }
    const { removed } = await purge(store, plan);
    out.result('purge', { dryRun: false, dataDir, items: plan.items, bytes: plan.bytes, kept: plan.kept, removed }, () => `Removed ${removed.length} item${removed.length === 1 ? '' : 's'} (${formatBytes(plan.bytes)}) from ${dataDir}. A relay keeps what this device put there: baton relay purge removes it.`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
