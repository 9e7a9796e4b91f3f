import { execFile, spawn } from 'node:child_process';
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

/** A long-running CLI command (device pair, baton serve) whose stdout lines the test reads as they come. */
export function spawnBatonCli(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let notify: (() => void) | undefined;
  child.stdout.on('data', (d: Buffer) => {
    partial += d.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
    notify?.();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number>((resolve) => child.once('exit', (code) => { notify?.(); resolve(code ?? 1); }));
  return {
    child,
    exit,
    stderr: () => stderr,
    async nextLine(timeoutMs = 30_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (lines.length === 0) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no output line from baton ${args.join(' ')}: ${stderr}`);
        await new Promise<void>((r) => { notify = r; setTimeout(r, 200); });
      }
      return lines.shift()!;
    },
  };
}
