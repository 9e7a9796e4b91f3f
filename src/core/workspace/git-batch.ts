import { spawn } from 'node:child_process';
import { tracePart } from '../perf/phase-trace.js';
import { GIT_MAX_BUFFER_BYTES, gitArgs, gitEnv, runGit, streamGit, type GitOptions, type GitResult } from './git.js';
import type { GitSpawner } from './git-spawner.js';

/**
 * Several independent git commands in one child process (issue 20, "CLI start-up"). Every spawn
 * from Node forks the whole calling process synchronously (~1.5–4 ms of a handoff's main thread
 * each, more under load); one `/bin/sh` that starts the git commands side by side costs one such
 * fork, and the shell's own forks are of a tiny process.
 *
 * POSIX: `/bin/sh -c SCRIPT`, each command's stdout and stderr on pipes of their own, its exit
 * code on the shell's stdout. The arguments are single-quoted into the script (never
 * interpreted). Windows, or a shell that cannot be started: each command on its own, as runGit
 * and streamGit run it. Either way each result is the command's own code, stdout and stderr.
 * One difference: a git killed by a signal reports 128 + the signal's number here, 128 there.
 */

/**
 * At most this many commands a batch: dash (Debian's /bin/sh) redirects single-digit descriptors
 * only, so the four stdouts go to 3–6 and the four stderrs to 7–9 and the shell's own stderr.
 */
export const GIT_BATCH_MAX_CALLS = 4;

export interface GitCall {
  args: string[];
  /** Each stdout chunk as it comes, not buffered (the result's stdout is then empty). */
  onStdout?: (chunk: Buffer) => void;
}

export interface GitBatchOptions extends GitOptions {
  /** The first call runs to its end before the others start (they read what it wrote), whatever its exit code. */
  firstAlone?: boolean;
  /**
   * A host's long-lived shell (git-spawner.ts): the batch runs there, without a fork of this
   * process, with its env (the temporary index only), firstAlone and streamed calls; a batch the
   * spawner cannot carry or run (it answers null) runs as below.
   */
  spawner?: GitSpawner;
}

/** The calls' results, in the calls' order. All calls share `cwd` and `options.env`. */
export function runGitBatch(cwd: string, calls: readonly GitCall[], options: GitBatchOptions = {}): Promise<GitResult[]> {
  if (calls.length > GIT_BATCH_MAX_CALLS) throw new RangeError(`runGitBatch: ${calls.length} calls, at most ${GIT_BATCH_MAX_CALLS}`);
  const spawner = options.spawner;
  if (spawner) {
    const viaSpawner = spawner.run(
      cwd,
      calls.map((call) => call.args),
      { env: options.env, firstAlone: options.firstAlone, onStdout: calls.map((call) => call.onStdout) },
    );
    return tracePart('git', viaSpawner).then((results) => results ?? runGitBatch(cwd, calls, { ...options, spawner: undefined }));
  }
  if (calls.length <= 1 || process.platform === 'win32') return eachOnItsOwn(cwd, calls, options);
  return tracePart('git', viaShell(cwd, calls, options)).then((results) => results ?? eachOnItsOwn(cwd, calls, options));
}

async function eachOnItsOwn(cwd: string, calls: readonly GitCall[], options: GitBatchOptions): Promise<GitResult[]> {
  if (options.firstAlone && calls.length > 1) {
    const [first] = await eachOnItsOwn(cwd, calls.slice(0, 1), { ...options, firstAlone: false });
    return [first!, ...(await eachOnItsOwn(cwd, calls.slice(1), { ...options, firstAlone: false }))];
  }
  return Promise.all(
    calls.map((call) =>
      call.onStdout ? streamGit(cwd, call.args, call.onStdout, options).then((r) => ({ ...r, stdout: Buffer.alloc(0) })) : runGit(cwd, call.args, undefined, options),
    ),
  );
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
const stdoutFd = (i: number) => 3 + i;
const stderrFd = (i: number) => (i < 3 ? 7 + i : 2);

/** The shell script: every command in the background (the first in the foreground when firstAlone), its code as "INDEX CODE" once it ends. */
export function batchScript(calls: readonly GitCall[], firstAlone = false): string {
  // Each git gets its own pipes as 1 and 2 and no other descriptor of the batch: something it
  // leaves running (an fsmonitor daemon) must not hold the batch's pipes open, as with one spawn.
  const closeAll = Array.from({ length: 7 }, (_, k) => `${3 + k}>&-`).join(' ');
  const jobs = calls.map(
    (call, i) => `{ git ${gitArgs(call.args).map(quote).join(' ')} >&${stdoutFd(i)} 2>&${stderrFd(i)} ${closeAll}; echo "${i} $?"; }${firstAlone && i === 0 ? '' : ' &'}`,
  );
  return `${jobs.join('\n')}\nwait\n`;
}

/** Resolves null when the shell could not be started (the caller runs each command on its own). */
function viaShell(cwd: string, calls: readonly GitCall[], options: GitBatchOptions): Promise<GitResult[] | null> {
  return new Promise((resolve) => {
    const descriptors = 7 + Math.min(calls.length, 3);
    const stdio = Array.from({ length: descriptors }, (_, fd) => (fd === 0 ? 'ignore' : 'pipe')) as ('ignore' | 'pipe')[];
    const child = spawn('/bin/sh', ['-c', batchScript(calls, options.firstAlone)], { cwd, env: gitEnv(options.env), stdio, windowsHide: true });
    const outputs = calls.map(() => ({ chunks: [] as Buffer[], size: 0, overflow: false, errors: [] as Buffer[] }));
    let codes = '';
    // No shell (or no cwd): nothing ran; each command on its own then gives its usual answer.
    child.on('error', () => resolve(null));
    child.stdout!.on('data', (chunk: Buffer) => (codes += chunk.toString('latin1')));
    calls.forEach((call, i) => {
      const out = outputs[i]!;
      child.stdio[stdoutFd(i)]!.on('data', (chunk: Buffer) => {
        if (call.onStdout) return call.onStdout(chunk);
        out.size += chunk.length;
        if (out.size > GIT_MAX_BUFFER_BYTES) out.overflow = true;
        else out.chunks.push(chunk);
      });
      child.stdio[stderrFd(i)]!.on('data', (chunk: Buffer) => out.errors.push(chunk));
    });
    child.on('close', () => {
      const byIndex = new Map<number, number>();
      for (const line of codes.split('\n')) {
        const [index, code] = line.split(' ').map(Number);
        if (Number.isInteger(index) && Number.isInteger(code)) byIndex.set(index!, code!);
      }
      resolve(
        outputs.map((out, i) => {
          const stderr = Buffer.concat(out.errors).toString('utf8');
          // Node's own words when a buffered stdout passes the limit (execFile's maxBuffer).
          if (out.overflow) return { code: 128, stdout: Buffer.concat(out.chunks), stderr: stderr || 'stdout maxBuffer length exceeded' };
          const code = byIndex.get(i);
          return { code: code ?? 128, stdout: Buffer.concat(out.chunks), stderr: code === undefined ? stderr || 'git ended without an exit code (the shell was stopped)' : stderr };
        }),
      );
    });
  });
}
