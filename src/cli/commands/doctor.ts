import type { Command } from 'commander';
import { runDoctor } from '../../core/doctor.js';
import { registerBatonHandler, resolveDesktopExec, type RegistrationResult } from '../../core/desktop-registration.js';
import { resolveDataDir } from '../../core/paths.js';
import { createOutput, EXIT } from '../output.js';

type FixReport = { platform: string; registered: RegistrationResult | null; notDone: string | null };

/** `--fix`: what can be repaired without asking, today the baton:// registration on Linux. */
async function fix(platform: NodeJS.Platform): Promise<FixReport> {
  if (platform !== 'linux') return { platform, registered: null, notDone: `baton:// is registered by the installed app on ${platform}; nothing to fix from here` };
  const exec = resolveDesktopExec();
  if (!exec.ok) return { platform, registered: null, notDone: exec.why };
  try {
    return { platform, registered: await registerBatonHandler({ exec: exec.exec }), notDone: null };
  } catch (error) {
    return { platform, registered: null, notDone: (error as Error).message };
  }
}

function describeFix(report: FixReport): string {
  if (!report.registered) return `fix: not done: ${report.notDone}`;
  const r = report.registered;
  return [`fix: wrote ${r.file}`, `fix: xdg-mime ${r.xdgMime.status}: ${r.xdgMime.detail}`, `fix: update-desktop-database ${r.desktopDatabase.status}: ${r.desktopDatabase.detail}`].join('\n');
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check what a handoff depends on: store, endpoint, display, baton:// registration, desktop app')
    .option('--json', 'print one versioned JSON object')
    .option('--fix', 'repair what can be repaired here (Linux: register baton:// for this desktop build), then check')
    .action(async (flags: { json?: boolean; fix?: boolean }) => {
      const out = createOutput(!!flags.json);
      const fixed = flags.fix ? await fix(process.platform) : null;
      const checks = await runDoctor(resolveDataDir());
      const healthy = checks.every((c) => c.ok);
      const damagedSessions = checks.flatMap((c) => c.sessions ?? []);
      out.result('doctor', { healthy, checks, damagedSessions, ...(fixed ? { fix: fixed } : {}) }, () =>
        [
          ...(fixed ? [describeFix(fixed)] : []),
          ...checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}${c.ok || !c.fix ? '' : `\n    fix: ${c.fix}`}`),
        ].join('\n'),
      );
      process.exitCode = healthy ? EXIT.ok : EXIT.failure;
    });
}
