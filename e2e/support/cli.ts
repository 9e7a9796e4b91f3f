import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const BATON_BIN = join(REPO_ROOT, 'bin', 'baton.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real, built `baton` CLI with the given data directory. */
export function runBaton(args: string[], options: { home: string; cwd?: string; input?: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BATON_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env, BATON_HOME: options.home, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export async function makeTempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Writes a JSONL conversation file a terminal assistant would hand to `baton handoff`. */
export async function writeConversation(dir: string, name: string, messages: { role: string; content: string }[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
  return file;
}
