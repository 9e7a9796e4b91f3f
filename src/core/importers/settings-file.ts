import { open } from 'node:fs/promises';

/** A settings.json larger than this is not read (Claude Code's own files are a few KiB). */
export const SETTINGS_MAX_BYTES = 1024 * 1024;

/** One settings file read: its JSON, or why it could not be used; null when it does not exist. */
export type SettingsJson = { json: unknown } | { error: string };

/**
 * Reads one tool settings file (read-only, size-limited). Shared by the permission and model
 * importers, so each settings file is read the same way and a broken one is named, not fatal.
 */
export async function readSettingsJson(path: string): Promise<SettingsJson | null> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { error: 'not a regular file' };
      if (stat.size > SETTINGS_MAX_BYTES) return { error: `over ${SETTINGS_MAX_BYTES} bytes, not read` };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { error: `cannot read: ${(error as Error).message}` };
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
}
