import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real git repositories in temp dirs for the workspace tests. Identity is set in each repo's own
 * config (never the global one), and the caller's GIT_* variables are dropped.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface TempRepo {
  root: string;
  git: (...args: string[]) => string;
  write: (path: string, data: string | Uint8Array, mode?: number) => void;
  read: (path: string) => Buffer;
  commitAll: (message: string) => string;
}

const scratch: string[] = [];

/** A fresh temp directory (realpath), removed by cleanupTemp(). */
export function tempDir(prefix = 'baton-ws-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  scratch.push(dir);
  return dir;
}

export function cleanupTemp(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function repoAt(root: string): TempRepo {
  return {
    root,
    git: (...args) => git(root, ...args),
    write: (path, data, mode) => {
      const abs = join(root, path);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, data);
      if (mode !== undefined) chmodSync(abs, mode);
    },
    read: (path) => readFileSync(join(root, path)),
    commitAll: (message) => {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--no-verify', '-m', message);
      return git(root, 'rev-parse', 'HEAD');
    },
  };
}

/** `git init -b main` with a local identity, in a new temp dir (or `dir`). */
export function makeRepo(dir?: string): TempRepo {
  const root = dir ?? tempDir('baton-repo-');
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Baton Test');
  git(root, 'config', 'user.email', 'test@baton.invalid');
  git(root, 'config', 'commit.gpgsign', 'false');
  git(root, 'config', 'core.autocrlf', 'false');
  git(root, 'config', 'protocol.file.allow', 'always');
  return repoAt(realpathSync(root));
}
