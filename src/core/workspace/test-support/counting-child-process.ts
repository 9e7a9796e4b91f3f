import type * as ChildProcess from 'node:child_process';

/**
 * node:child_process whose spawn and execFile (the two ways git is started) count into `started`:
 * for a `vi.mock('node:child_process', …)` factory in tests that prove a host forks no git itself.
 */
export function countingChildProcess(real: typeof ChildProcess, started: { count: number }): typeof ChildProcess {
  return {
    ...real,
    spawn: ((...args: Parameters<typeof real.spawn>) => {
      started.count++;
      return real.spawn(...args);
    }) as typeof real.spawn,
    execFile: ((...args: unknown[]) => {
      started.count++;
      return (real.execFile as (...a: unknown[]) => unknown)(...args);
    }) as typeof real.execFile,
  };
}
