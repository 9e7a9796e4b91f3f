import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** For the at-rest tests: a marker string put in a session's patch, then looked for on disk. */
const execFileP = promisify(execFile);

/** `grep -r -i -l MARKER dir`: the files that contain the marker (grep exits 1 when none do). */
export async function grepMarker(dir: string, marker: string): Promise<string[]> {
  try {
    const { stdout } = await execFileP('grep', ['-r', '-i', '-l', '-a', marker, dir]);
    return stdout.split('\n').filter(Boolean);
  } catch (error) {
    if ((error as { code?: number }).code === 1) return [];
    throw error;
  }
}

/** A git work tree under `root`/work with one committed file, then changed so its patch carries the marker. */
export async function markerWorkspace(root: string, marker: string): Promise<string> {
  const work = join(root, 'work');
  await mkdir(work);
  const git = (...args: string[]) => execFileP('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: work });
  await git('init', '-q');
  await writeFile(join(work, 'app.ts'), 'export const a = 1;\n');
  await git('add', '.');
  await git('commit', '-qm', 'init');
  await writeFile(join(work, 'app.ts'), `export const a = 1;\n// ${marker} in the patch\n`);
  return work;
}
