import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/index.js';
import type { InstallTarget } from './targets.js';

/**
 * What one `baton install` changed, kept in Baton's data dir (never in ~/.claude or ~/.codex), so
 * `baton uninstall` can undo exactly that: restore the backup when the settings still hold the
 * bytes install wrote, else take out only Baton's entries.
 */
export const InstallState = z.object({
  version: z.literal(1),
  agent: z.enum(['claude', 'codex']),
  commandFile: z.string(),
  commandSha256: z.string().nullable(),
  settingsFile: z.string().nullable(),
  /** sha256 of the settings bytes install wrote; null when install left the settings alone. */
  settingsWrittenSha256: z.string().nullable(),
  /** The settings as they were before install; null when there was no settings file. */
  backupFile: z.string().nullable(),
  settingsExisted: z.boolean(),
  /** Containers install created in the settings ("hooks", "hooks.PreToolUse"). */
  created: z.array(z.string()),
});
export type InstallState = z.infer<typeof InstallState>;

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** One state file per managed command file: user and project installs do not overwrite each other. */
export function installStatePath(dataDir: string, target: InstallTarget): string {
  return join(dataDir, 'installs', `${target.agent}-${sha256(target.commandFile).slice(0, 16)}.json`);
}

export async function readInstallState(path: string): Promise<InstallState | null> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return null;
  const parsed = InstallState.safeParse((() => { try { return JSON.parse(text); } catch { return null; } })());
  // An unreadable record only costs the byte-exact restore: uninstall then removes Baton's entries.
  return parsed.success ? parsed.data : null;
}

export async function writeInstallState(path: string, state: InstallState): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}

export async function removeInstallState(path: string): Promise<void> {
  await rm(path, { force: true });
}
