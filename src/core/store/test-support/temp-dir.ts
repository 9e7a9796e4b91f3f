import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Crash suites do thousands of fsyncs: on tmpfs they cost nothing and a process kill behaves the same. */
export function fastTmpRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

export async function makeTempDir(prefix = 'baton-store-', base = tmpdir()): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(base, prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
