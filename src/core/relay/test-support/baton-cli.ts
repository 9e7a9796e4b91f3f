import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The real CLI from source, in a child process, with its own data directory (one "device"). */
const CLI = join(import.meta.dirname, '..', '..', '..', 'cli', 'run.ts');

export interface CliRun {
  code: number;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

export function batonCli(dataDir: string, args: string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', ...options.env }, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
        } catch {
          json = {};
        }
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
        resolve({ code, json, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
