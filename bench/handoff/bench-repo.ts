import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A small repository with one commit and one changed file, at `work`: the handoff benches run
 * their git probes as they would in a project (a directory outside git stops after the first probe).
 */
export async function makeBenchRepo(work: string): Promise<void> {
  await mkdir(join(work, 'src'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: work });
  for (let i = 0; i < 20; i++) await writeFile(join(work, 'src', `file-${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'start');
  await writeFile(join(work, 'src', 'file-3.ts'), 'export const changed = true;\n');
}
