import { readSmallFile } from '../fs/read-small-file.js';

/** A settings.json larger than this is not read (Claude Code's own files are a few KiB). */
export const SETTINGS_MAX_BYTES = 1024 * 1024;

/** One settings file read: its JSON, or why it could not be used; null when it does not exist. */
export type SettingsJson = { json: unknown } | { error: string };

/**
 * Reads one tool settings file (read-only, size-limited). Shared by the permission and model
 * importers, so each settings file is read the same way and a broken one is named, not fatal.
 */
export async function readSettingsJson(path: string): Promise<SettingsJson | null> {
  const file = await readSmallFile(path, SETTINGS_MAX_BYTES, 'not read');
  if (file === null || 'error' in file) return file;
  const text = file.bytes.toString('utf8');
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
}
