import type { Command } from 'commander';
import { newProgram, runProgram } from './program.js';

type Register = (program: Command) => void;

/**
 * Every command, loaded only when it runs: a handoff from a terminal assistant should not pay for
 * the browser host, the importers or the task client at start-up (bench/handoff/cli-process.ts).
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  handoff: async () => (await import('./commands/handoff.js')).registerHandoff,
  list: async () => (await import('./commands/list.js')).registerList,
  show: async () => (await import('./commands/show.js')).registerShow,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  ssh: async () => (await import('./commands/ssh.js')).registerSsh,
  resume: async () => (await import('./commands/resume.js')).registerResume,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  stats: async () => (await import('./commands/stats.js')).registerStats,
  approve: async () => (await import('./commands/approve.js')).registerApprove,
  task: async () => (await import('./commands/task.js')).registerTask,
  policy: async () => (await import('./commands/policy.js')).registerPolicy,
  install: async () => (await import('./commands/install.js')).registerInstall,
  uninstall: async () => (await import('./commands/install.js')).registerUninstall,
  completion: async () => (await import('./commands/completion.js')).registerCompletion,
  help: async () => (await import('./commands/help.js')).registerHelp,
  relay: async () => (await import('./commands/relay.js')).registerRelay,
  device: async () => (await import('./commands/device.js')).registerDevice,
  archive: async () => (await import('./commands/archive.js')).registerArchive,
  unarchive: async () => (await import('./commands/archive.js')).registerUnarchive,
  export: async () => (await import('./commands/bundle.js')).registerExport,
  import: async () => (await import('./commands/bundle.js')).registerImport,
  delete: async () => (await import('./commands/delete.js')).registerDelete,
  purge: async () => (await import('./commands/purge.js')).registerPurge,
  encrypt: async () => (await import('./commands/encrypt.js')).registerEncrypt,
  key: async () => (await import('./commands/encrypt.js')).registerKey,
};

/** The program with the named command, or with all of them (for --help and unknown commands). */
export async function buildProgram(commandName?: string): Promise<Command> {
  const program = newProgram();
  const names = commandName && Object.hasOwn(COMMANDS, commandName) ? [commandName] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  return program;
}

/** The build's code-cache warm-up of what `baton serve` loads after its address (scripts/build-cli.js). */
export async function warmHostModules(): Promise<void> {
  await (await import('./commands/serve.js')).warmHostModules();
}

export function main(argv: string[]): Promise<void> {
  return runProgram(argv, buildProgram);
}
