import { processStartTime } from '../tasks/process-start-time.js';

/** How long an agent gets to stop cleanly after SIGINT before SIGTERM. */
export const STOP_GRACE_MS = 3_000;

export type StopOutcome = 'signalled' | 'gone' | 'pid-reused';

/**
 * Stops the one process Baton started: SIGINT (the agent's own interrupt), then SIGTERM after
 * the grace period if it is still there. Before each signal the pid's start time is read again
 * and compared with the one recorded at spawn, so a reused pid is never signalled.
 */
export async function stopStartedProcess(pid: number, startTime: string, exited: Promise<unknown>, graceMs = STOP_GRACE_MS): Promise<StopOutcome> {
  const check = async (): Promise<StopOutcome | null> => {
    const now = await processStartTime(pid);
    if (now === null) return 'gone';
    if (now !== startTime) return 'pid-reused';
    return null;
  };
  const before = await check();
  if (before) return before;
  process.kill(pid, 'SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = await Promise.race([exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)))]);
  clearTimeout(timer);
  if (!graceOver) return 'signalled';
  const again = await check();
  if (again) return again === 'gone' ? 'signalled' : again;
  process.kill(pid, 'SIGTERM');
  return 'signalled';
}
