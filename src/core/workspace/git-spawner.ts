import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileSize, makeBatchDir, readAtMost, streamFile, writePrivateFile } from './batch-output-files.js';
import { GIT_MAX_BUFFER_BYTES, gitArgs, gitEnv, type GitResult } from './git.js';

/**
 * A long-lived `/bin/sh` that starts git batches for a host (issue 20, the receiver's answer).
 * Node's spawn forks the calling process and waits until the child has exec'd, on the calling
 * thread: in a host that is 2.5–3 ms quiet and ~15 ms under load per batch, during which the
 * offer's verification (running beside the workspace verdict) stands still. This shell is started
 * once; each batch is a script in a private temporary directory, which one line on the shell's
 * stdin sources, and the forks are the small shell's, not the host's.
 *
 * Each git writes its stdout and stderr to files of that directory (the host reads them once the
 * batch has ended) and its exit code to the shell's stdout as "ID INDEX CODE", then "ID end" (or
 * "ID lost": the script could not be read, the batch answers null). A batch may carry the
 * temporary index's environment (SPAWNER_ENV_KEYS only), run its first call alone before the
 * others, and stream a call's stdout (read from its file once the batch ended, in chunks, bounded
 * by maxBuffer as a buffered one is). Anything else (another variable, a value that is not an
 * absolute path), a path, argument or value that holds a newline, CR or NUL (kept out of the
 * script as they were out of the one line a batch once was), a cwd or temporary directory that
 * is not absolute, a temporary directory that cannot be made, a streamed stdout past maxBuffer,
 * Windows, or a shell that died answers null and the caller runs the batch as before. The shell
 * reads its stdin and the batches' scripts, nothing else: when the host goes away, stdin ends and
 * so does the shell; its handles are unref'd and never keep a host alive.
 *
 * The shell's environment (gitEnv(): the host's, without GIT_*) is taken once, when the shell
 * starts: later changes to process.env are not seen by its gits (a spawn would see them). A shell
 * that died is replaced with the environment of that moment.
 */

/** The shell's loop: every line is one batch script, run in a background subshell so batches overlap. */
const LOOP = 'while IFS= read -r line; do eval "$line"; done';

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** What one line of the shell cannot carry as given: a newline ends it, CR to be safe, NUL dash's `read` drops. */
const UNCARRIABLE = /[\n\r\0]/;

/** The batches' temporary directories: `baton-git-XXXXXX` under the temporary root. */
export const BATCH_DIR_PREFIX = 'baton-git-';

/** A batch directory older than this was left by a host that crashed (a batch lasts seconds). */
export const STALE_BATCH_DIR_MS = 60 * 60 * 1000;

/**
 * The only variables a batch may add to its gits' environment: the temporary index of a dirty
 * capture (temp-index.ts). The shell's own environment has no GIT_* (gitEnv()), and a caller's
 * other GIT_* never reach a git through here: such a batch is declined (its spawn drops them too).
 */
export const SPAWNER_ENV_KEYS: readonly string[] = ['GIT_INDEX_FILE'];

export interface SpawnerBatchOptions {
  /** Added to every call's environment; only SPAWNER_ENV_KEYS, each an absolute path (else the batch is declined). */
  env?: Record<string, string>;
  /** The first call runs to its end before the others start (they read what it wrote), whatever its exit code. */
  firstAlone?: boolean;
  /**
   * Per call: its stdout handed over in chunks instead of buffered (the result's stdout is then
   * empty). Handed over only once every call has ended and no streamed stdout is past maxBuffer;
   * one past it declines the batch before any chunk is given (the caller's spawn streams it).
   */
  onStdout?: readonly (((chunk: Buffer) => void) | undefined)[];
}

/** `VAR='value' ` for each variable of a carriable environment, or null when the batch must be declined. */
function envPrefix(env: Record<string, string> | undefined): string | null {
  let prefix = '';
  for (const [key, value] of Object.entries(env ?? {})) {
    if (!SPAWNER_ENV_KEYS.includes(key) || !isAbsolute(value) || UNCARRIABLE.test(value)) return null;
    prefix += `${key}=${quote(value)} `;
  }
  return prefix;
}

export interface GitSpawnerOptions {
  /** Where the batches' directories go (default: os.tmpdir() at each batch). */
  tempRoot?: string;
  /** Largest stdout accepted from one call, as a spawn's maxBuffer (default GIT_MAX_BUFFER_BYTES). */
  maxBuffer?: number;
}

interface Pending {
  /** The shell the batch went to: when it goes away, only its batches answer null. */
  child: ChildProcess;
  codes: Map<number, number>;
  resolve: (ended: Map<number, number> | null) => void;
}

export class GitSpawner {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private ran = 0;
  private readonly maxBuffer: number;
  /** The start-up sweep of stale batch directories (resolves when done; never rejects). */
  swept: Promise<void> = Promise.resolve();

  constructor(private readonly options: GitSpawnerOptions = {}) {
    this.maxBuffer = options.maxBuffer ?? GIT_MAX_BUFFER_BYTES;
  }

  /** Batches this shell has answered (what a host's tests and benches read). */
  get batchesRun(): number {
    return this.ran;
  }

  /** The shell's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Starts the shell now, so the host's one fork of itself happens at start-up, not during an
   * offer; and sweeps the batch directories a crashed host left behind (beside, best effort).
   */
  start(): this {
    this.shell();
    if (process.platform !== 'win32') this.swept = sweepStaleBatchDirs(this.tempRoot());
    return this;
  }

  /**
   * The batch's results in the calls' order (each as runGit gives it), or null when this spawner
   * cannot run it (the caller then runs it itself; git's read-only commands can simply run again).
   */
  async run(cwd: string, argsList: readonly string[][], options: SpawnerBatchOptions = {}): Promise<GitResult[] | null> {
    if (this.closed || process.platform === 'win32') return null;
    const env = envPrefix(options.env);
    if (env === null) return null;
    // Not absolute: `cd` would read '-' as $OLDPWD, and resolve a relative path from the shell's
    // own directory and through CDPATH, where a spawn resolves it from the host's.
    if (!isAbsolute(cwd) || UNCARRIABLE.test(cwd) || argsList.some((args) => args.some((a) => UNCARRIABLE.test(a)))) return null;
    // No temporary directory (TMPDIR missing, full, not writable): the caller's spawn runs it.
    const dir = makeBatchDir(join(this.tempRoot(), BATCH_DIR_PREFIX));
    if (dir === null) return null;
    try {
      // The shell as it is now (after the await): one that died meanwhile is replaced here.
      const child = this.shell();
      // A relative TMPDIR: the outputs would be resolved from the repository after its cd.
      if (child === null || UNCARRIABLE.test(dir) || !isAbsolute(dir)) return null;
      const id = this.nextId++;
      // Each git is a simple command in the background (one fork of the shell, which execs git;
      // a `{ git; echo; } &` group forked twice), its code read by `wait` on its pid. The first
      // call alone: in the foreground of the batch's subshell, so the others start once it ended.
      const command = (args: string[], i: number) => `${env}git ${gitArgs(args).map(quote).join(' ')} </dev/null >${quote(join(dir, `o${i}`))} 2>${quote(join(dir, `e${i}`))}`;
      const jobs = argsList.map((args, i) => (options.firstAlone && i === 0 ? `${command(args, i)}; echo "${id} ${i} $?";` : `${command(args, i)} & p${i}=$!;`));
      const waits = argsList.map((_, i) => (options.firstAlone && i === 0 ? '' : `wait $p${i}; echo "${id} ${i} $?";`));
      // cd in the batch's own subshell: a missing cwd fails every call, as a spawn's ENOENT does.
      const script = `( cd -P -- ${quote(cwd)} 2>/dev/null || { ${argsList.map((_, i) => `echo "${id} ${i} 128";`).join(' ')} echo "${id} end"; exit; }; ${jobs.join(' ')} ${waits.join(' ')} echo "${id} end" ) &\n`;
      // The script goes to a file of the batch's private directory and the shell sources it: the
      // shell's `read` takes its line one byte a syscall (~0.4 ms for a batch of four), a file
      // it reads in blocks. A file that cannot be written: the caller's spawn runs the batch.
      const scriptFile = join(dir, 's');
      if (!writePrivateFile(scriptFile, script)) return null;
      // `.` of a file dash cannot open ends a non-interactive shell (every batch on it lost):
      // `command .` keeps the shell, and this batch alone answers null.
      const line = `command . ${quote(scriptFile)} || echo "${id} lost"\n`;
      const ended = new Promise<Map<number, number> | null>((resolve) => this.pending.set(id, { child, codes: new Map(), resolve }));
      holdOpen(child, true); // a batch being answered keeps the process alive, as a spawn's pipes do
      // A shell that goes away answers every batch null ('exit', 'error': fail()); one whose
      // stdin is already gone may emit neither, so the write's own error answers this batch.
      if (!child.stdin!.writable) this.settle(id, null);
      else child.stdin!.write(line, (error) => error && this.settle(id, null));
      const codes = await ended;
      if (codes === null) return null;
      const streams = options.onStdout ?? [];
      // A streamed stdout past the limit: declined before any chunk is given, so the caller's
      // spawn can stream it whole (a spawn does not bound a streamed call).
      const sizes = argsList.map((_, i) => (streams[i] ? fileSize(join(dir, `o${i}`)) : 0));
      if (sizes.some((size) => size > this.maxBuffer)) return null;
      this.ran++;
      return await Promise.all(argsList.map((_, i) => this.result(dir, i, codes.get(i), streams[i])));
    } finally {
      // The answer stands whether or not its directory goes (a leftover is swept at a later
      // start), so it is not kept waiting for the removal: fire-and-forget, errors ignored.
      void rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Ends the shell; batches still running answer null. */
  close(): void {
    this.closed = true;
    this.fail();
    this.child?.stdin?.end();
    this.child = null;
  }

  private tempRoot(): string {
    return this.options.tempRoot ?? tmpdir();
  }

  private async result(dir: string, i: number, code: number | undefined, onStdout?: (chunk: Buffer) => void): Promise<GitResult> {
    // At most one byte past the limit is read (of stderr, the limit): a spawn stops there too.
    const [stdout, stderrBytes] = await Promise.all([
      onStdout ? streamFile(join(dir, `o${i}`), this.maxBuffer, onStdout).then(() => Buffer.alloc(0)) : readAtMost(join(dir, `o${i}`), this.maxBuffer + 1),
      readAtMost(join(dir, `e${i}`), this.maxBuffer),
    ]);
    const stderr = stderrBytes.toString('utf8');
    // What runGitBatch's spawn gives when a buffered stdout passes the limit (Node's words, execFile's maxBuffer).
    if (stdout.length > this.maxBuffer) return { code: 128, stdout: stdout.subarray(0, this.maxBuffer), stderr: stderr || 'stdout maxBuffer length exceeded' };
    return { code: code ?? 128, stdout, stderr: code === undefined ? stderr || 'git ended without an exit code (the shell was stopped)' : stderr };
  }

  private shell(): ChildProcess | null {
    if (this.closed) return null;
    if (this.child) return this.child;
    let child: ChildProcess;
    try {
      child = spawn('/bin/sh', ['-c', LOOP], { env: gitEnv(), stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    } catch {
      return null;
    }
    this.child = child;
    const gone = () => {
      if (this.child === child) this.child = null;
      this.fail(child);
      child.stdin?.destroy(); // a shell still running (its stdout failed) ends at its stdin's end
    };
    child.on('error', gone);
    child.on('exit', gone);
    child.stdin!.on('error', gone);
    // Without a listener, an error on the pipe would be thrown in the host.
    child.stdout!.on('error', gone);
    let buffered = ''; // this shell's own partial line
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered = this.read(buffered + chunk.toString('latin1'));
    });
    // A host never waits for an idle spawner: the shell ends when the host's end of stdin closes.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    holdOpen(child, false);
    return child;
  }

  /** Takes the shell's complete "ID INDEX CODE" / "ID end" lines; returns what is left of a partial one. */
  private read(text: string): string {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; start = newline + 1, newline = text.indexOf('\n', start)) {
      const [id, index, code] = text.slice(start, newline).split(' ');
      const pending = this.pending.get(Number(id));
      if (!pending) continue;
      if (index === 'end') this.settle(Number(id), pending.codes);
      else if (index === 'lost') this.settle(Number(id), null);
      else if (Number.isInteger(Number(index)) && Number.isInteger(Number(code))) pending.codes.set(Number(index), Number(code));
    }
    return text.slice(start);
  }

  private settle(id: number, codes: Map<number, number> | null): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (![...this.pending.values()].some((p) => p.child === pending.child)) holdOpen(pending.child, false);
    pending.resolve(codes);
  }

  /** Answers null to the batches of `child` (all of them when none is named). */
  private fail(child?: ChildProcess): void {
    for (const [id, pending] of this.pending) if (child === undefined || pending.child === child) this.settle(id, null);
  }
}

/** Whether the shell's stdout keeps this process's event loop alive (only while a batch waits on it). */
function holdOpen(child: ChildProcess, hold: boolean): void {
  const stdout = child.stdout as unknown as { ref?: () => void; unref?: () => void } | null;
  if (hold) stdout?.ref?.();
  else stdout?.unref?.();
}

/**
 * Removes this user's `baton-git-*` directories older than STALE_BATCH_DIR_MS under `root` (a host
 * that crashed mid-batch leaves its directory). lstat: a symlink is never followed nor removed
 * through; another user's entry is left alone. Best effort: nothing here fails a start.
 */
export async function sweepStaleBatchDirs(root: string, now = Date.now()): Promise<void> {
  const uid = process.getuid?.();
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(BATCH_DIR_PREFIX))
      .map(async (name) => {
        const path = join(root, name);
        const stats = await lstat(path).catch(() => null);
        if (!stats?.isDirectory() || (uid !== undefined && stats.uid !== uid) || now - stats.mtimeMs < STALE_BATCH_DIR_MS) return;
        await rm(path, { recursive: true, force: true }).catch(() => undefined);
      }),
  );
}
