import { execFile } from 'node:child_process';

/** Largest output we accept from one git call (a patch past this is referenced, not read). */
export const GIT_MAX_BUFFER_BYTES = 256 * 1024 * 1024;

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs the real git with an argument array (never a shell). The caller's GIT_* variables are
 * dropped so a hook environment (GIT_DIR, GIT_INDEX_FILE …) cannot redirect us to another repo,
 * and --no-optional-locks keeps us from taking index.lock while the person's own git runs.
 */
export function runGit(cwd: string, args: string[], input?: Buffer): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  env.GIT_TERMINAL_PROMPT = '0';
  env.LC_ALL = 'C';
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['--no-optional-locks', '-c', 'core.quotepath=off', ...args],
      { cwd, env, encoding: 'buffer', maxBuffer: GIT_MAX_BUFFER_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 128) : 0;
        resolve({ code, stdout: stdout ?? Buffer.alloc(0), stderr: stderr?.toString('utf8') ?? String(error?.message ?? '') });
      },
    );
    if (input) child.stdin?.end(input);
  });
}

/** git output as a trimmed string, or null when the command failed (not a repository, no HEAD …). */
export async function gitLine(cwd: string, args: string[]): Promise<string | null> {
  const result = await runGit(cwd, args);
  if (result.code !== 0) return null;
  const text = result.stdout.toString('utf8').trim();
  return text.length > 0 ? text : null;
}
