import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/**
 * The start time of a process, so a pid reused by another program is never signalled.
 * Linux: field 22 of /proc/<pid>/stat (clock ticks since boot), read after the last ')' because
 * the command name may itself contain spaces and parentheses.
 * macOS and the BSDs: `ps -o lstart= -p <pid>` (second resolution; enough to tell a reuse apart).
 * Windows: not implemented; null, and terminate refuses rather than guess (a future version
 * could read the process CreationDate through PowerShell).
 */
export async function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (platform === 'linux') {
    try {
      return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return null;
    }
  }
  if (platform === 'darwin' || platform === 'freebsd' || platform === 'openbsd') {
    return new Promise((resolve) => {
      execFile('ps', ['-o', 'lstart=', '-p', String(pid)], { timeout: 2_000 }, (error, stdout) => {
        const text = String(stdout).trim();
        resolve(error || text === '' ? null : `lstart:${text}`);
      });
    });
  }
  return null;
}

/** Field 22 (starttime) of a /proc/<pid>/stat line, or null when the line is malformed. */
export function parseProcStat(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state); starttime is field 22 → index 19.
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? `ticks:${start}` : null;
}

/** Whether this platform can tell a reused pid apart (and so may signal at all). */
export function canCheckStartTime(platform: NodeJS.Platform = process.platform): boolean {
  return ['linux', 'darwin', 'freebsd', 'openbsd'].includes(platform);
}
