import { execFile, spawn } from 'node:child_process';
import { tracePart } from '../perf/phase-trace.js';

/** Largest output we accept from one buffered git call (patches are streamed instead). */
export const GIT_MAX_BUFFER_BYTES = 256 * 1024 * 1024;

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  /** Variables added after the caller's GIT_* were dropped (e.g. our own temporary GIT_INDEX_FILE). */
  env?: Record<string, string>;
}

/**
 * The environment every git call runs with. The caller's GIT_* variables are dropped so a hook
 * environment (GIT_DIR, GIT_INDEX_FILE …) cannot redirect us to another repository or index.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  env.GIT_TERMINAL_PROMPT = '0';
  env.LC_ALL = 'C';
  return { ...env, ...extra };
}

/** Leading arguments of every call: no index.lock while the person's own git runs, raw path bytes. */
export function gitArgs(args: string[]): string[] {
  return ['--no-optional-locks', '-c', 'core.quotepath=off', ...args];
}

/**
 * Runs the real git with an argument array (never a shell). --no-optional-locks keeps us from
 * taking index.lock while the person's own git runs.
 */
export function runGit(cwd: string, args: string[], input?: Buffer, options: GitOptions = {}): Promise<GitResult> {
  return tracePart('git', new Promise((resolve) => {
    const child = execFile(
      'git',
      gitArgs(args),
      { cwd, env: gitEnv(options.env), encoding: 'buffer', maxBuffer: GIT_MAX_BUFFER_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 128) : 0;
        resolve({ code, stdout: stdout ?? Buffer.alloc(0), stderr: stderr?.toString('utf8') ?? String(error?.message ?? '') });
      },
    );
    child.stdin?.on('error', () => undefined); // git may exit before reading all of its input
    if (input) child.stdin?.end(input);
    else child.stdin?.end();
  }));
}

/**
 * Runs git and hands each stdout chunk to `onChunk` instead of buffering: a patch of any size is
 * hashed in constant memory. Resolves with the exit code and stderr.
 */
export function streamGit(cwd: string, args: string[], onChunk: (chunk: Buffer) => void, options: GitOptions = {}): Promise<{ code: number; stderr: string }> {
  return tracePart('git', new Promise((resolve) => {
    const child = spawn('git', gitArgs(args), { cwd, env: gitEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => onChunk(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', (error) => resolve({ code: 128, stderr: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 128, stderr: Buffer.concat(errors).toString('utf8') }));
  }));
}

/** git output as a trimmed string, or null when the command failed (not a repository, no HEAD …). */
export async function gitLine(cwd: string, args: string[]): Promise<string | null> {
  const result = await runGit(cwd, args);
  if (result.code !== 0) return null;
  const text = result.stdout.toString('utf8').trim();
  return text.length > 0 ? text : null;
}
