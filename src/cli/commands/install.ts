import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import {
  INSTALL_AGENTS,
  applyInstall,
  applyUninstall,
  planDiff,
  planInstall,
  planUninstall,
  resolveInstallTarget,
  type InstallAgent,
} from '../../core/install/index.js';
import { onPath } from '../../core/install/on-path.js';
import { createOutput, EXIT } from '../output.js';

interface InstallFlags {
  project?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `baton install claude|codex`: the `/handoff` command (and, for Claude Code, the approval hook
 * in settings.json); `baton uninstall` undoes exactly that. src/core/install holds the logic.
 */
export function registerInstall(program: Command): void {
  program
    .command('install <agent>')
    .description('add /handoff to Claude Code (with the approval hook) or Codex CLI')
    .option('--project', "this project's .claude/ instead of the user's (Claude Code only)")
    .option('--dry-run', 'print the diff of every file it would write, and write nothing')
    .option('--json', 'print one versioned JSON object')
    .action(async (agent: string, flags: InstallFlags) => {
      process.exitCode = await run('install', agent, flags);
    });
}

export function registerUninstall(program: Command): void {
  program
    .command('uninstall <agent>')
    .description('remove what baton install added (settings restored byte for byte when untouched since)')
    .option('--project', "this project's .claude/ instead of the user's (Claude Code only)")
    .option('--dry-run', 'print the diff of every file it would change, and change nothing')
    .option('--json', 'print one versioned JSON object')
    .action(async (agent: string, flags: InstallFlags) => {
      process.exitCode = await run('uninstall', agent, flags);
    });
}

async function run(command: 'install' | 'uninstall', agent: string, flags: InstallFlags): Promise<number> {
  const out = createOutput(!!flags.json);
  if (!(INSTALL_AGENTS as readonly string[]).includes(agent)) {
    out.problem(command, 'BAD_ARGUMENT', `<agent> must be one of ${INSTALL_AGENTS.join(', ')}, got "${agent}"`);
    return EXIT.usage;
  }
  try {
    const dataDir = resolveDataDir();
    const target = resolveInstallTarget(agent as InstallAgent, flags.project ? 'project' : 'user', process.cwd());
    const plan = command === 'install' ? await planInstall(target) : await planUninstall(target, dataDir);
    const diff = planDiff(plan);
    if (command === 'install' && !onPath('baton')) {
      plan.notes.push('baton is not on your PATH, and /handoff and the hook run it by name: run npm link in the Baton checkout, or npm install -g ./baton-*.tgz (README).');
    }
    const changes = plan.changes.map((c) => ({ path: c.path, role: c.role, action: c.after === null ? 'delete' : c.before === null ? 'create' : 'update' }));
    if (flags.dryRun || plan.changes.length === 0) {
      out.result(command, { dryRun: !!flags.dryRun, changes, diff, notes: plan.notes, backup: null }, () =>
        [plan.changes.length === 0 ? `Nothing to ${command}: ${describe(agent, command)}` : diff.trimEnd(), ...plan.notes].join('\n'),
      );
      return EXIT.ok;
    }
    const applied = command === 'install' ? await applyInstall(plan, dataDir) : { ...(await applyUninstall(plan, dataDir)), backup: null };
    out.result(command, { dryRun: false, changes, diff, notes: plan.notes, backup: applied.backup }, () =>
      [
        ...changes.map((c) => `${c.action === 'delete' ? 'removed' : c.action === 'create' ? 'created' : 'updated'} ${c.path}`),
        ...(applied.backup ? [`backup of the previous settings: ${applied.backup}`] : []),
        ...plan.notes,
        ...(command === 'install' ? nextSteps(agent) : []),
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    out.problem(command, (error as { code?: string }).code ?? 'ERROR', (error as Error).message);
    return EXIT.failure;
  }
}

function describe(agent: string, command: string): string {
  return command === 'install' ? `/handoff is already installed for ${agent}` : `Baton has nothing installed for ${agent} here`;
}

function nextSteps(agent: string): string[] {
  return agent === 'claude'
    ? ['Type /handoff in Claude Code to hand the current session to Baton.']
    : ['Type /prompts:handoff in Codex to hand the newest session of its directory to Baton (see docs/install.md for the sandbox).'];
}
