import type { Command } from 'commander';
import { runDoctor } from '../../core/doctor.js';
import { resolveDataDir } from '../../core/paths.js';
import { createOutput, EXIT } from '../output.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check what a handoff depends on: store, endpoint, display, baton:// registration, desktop app')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const checks = await runDoctor(resolveDataDir());
      const healthy = checks.every((c) => c.ok);
      const damagedSessions = checks.flatMap((c) => c.sessions ?? []);
      out.result('doctor', { healthy, checks, damagedSessions }, () =>
        checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}${c.ok || !c.fix ? '' : `\n    fix: ${c.fix}`}`).join('\n'),
      );
      process.exitCode = healthy ? EXIT.ok : EXIT.failure;
    });
}
