import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs git in `cwd` with a fixed identity and no user config, so the test does not depend on the machine. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  return stdout;
}

/** A fresh repository at `dir` with `files` committed on main. */
export async function makeRepo(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await git(dir, 'init', '-q');
  for (const [path, content] of Object.entries(files)) await writeRepoFile(dir, path, content);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'initial');
}

export async function writeRepoFile(dir: string, path: string, content: string): Promise<void> {
  const file = join(dir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}
