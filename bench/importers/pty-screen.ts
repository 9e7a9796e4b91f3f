/**
 * Time until a terminal program's screen shows something: the program runs in a real
 * pseudo-terminal (util-linux `script`, 160×50), its output is read as it comes, and the clock
 * stops at the first match of `ready` in the text with escape sequences removed. Used for the
 * resume pickers of issue 15 (Baton's, Claude Code's, Codex's), all measured the same way.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time (user + system, ms) used so far by `root` and every process below it, from /proc:
 * the program under the pty is killed at the match, so its rusage is never reported to us.
 * Resolution 10 ms per process.
 */
function treeCpuMs(root: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (in parentheses, which may hold spaces): state ppid … utime(14) stime(15).
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // the process ended while we looked
    }
  }
  let ticks = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return (ticks * 1000) / USER_HZ;
}

export interface PtyRun {
  ms: number;
  /** CPU (user + system) of the pty's process tree up to the match, ms (10 ms resolution; `script` included). */
  cpuMs: number;
  /** The screen text up to the match (for a failed wait, what was there). */
  screen: string;
}

export function stripTerminal(text: string): string {
  return text
    .replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/g, '')
    .replace(/\u001b\[[0-9;?<>=]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[()][0-9A-Za-z]/g, '')
    .replace(/\u001b[=>78]/g, '');
}

/** Runs `command` (a shell line) in a pty until `ready` appears, then kills it; rejects after `timeoutMs`. */
export function timeToScreen(command: string, ready: RegExp, options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {}): Promise<PtyRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('script', ['-qfec', `stty cols 160 rows 50; exec ${command}`, '/dev/null'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let raw = '';
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const cpuMs = error ? 0 : treeCpuMs(child.pid!);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      if (error) reject(error);
      else resolve({ ms: performance.now() - t0, cpuMs, screen: stripTerminal(raw) });
    };
    const timer = setTimeout(() => finish(new Error(`no match for ${ready} within ${options.timeoutMs ?? 30_000} ms; screen:\n${stripTerminal(raw).slice(-2000)}`)), options.timeoutMs ?? 30_000);
    child.stdout.on('data', (d: Buffer) => {
      raw += d.toString('utf8');
      if (ready.test(stripTerminal(raw))) finish(null);
    });
    child.on('exit', () => setTimeout(() => finish(ready.test(stripTerminal(raw)) ? null : new Error(`exited before ${ready} appeared; screen:\n${stripTerminal(raw).slice(-2000)}`)), 50));
    if (options.input) child.stdin.write(options.input);
  });
}
