import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Baton keeps its data (ARCHITECTURE.md §3): $BATON_HOME, else the platform's data dir.
 * Linux: $XDG_DATA_HOME/baton or ~/.local/share/baton. macOS: ~/Library/Application Support/Baton.
 * Windows: %LOCALAPPDATA%\Baton.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.BATON_HOME) return env.BATON_HOME;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Baton');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Baton');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'baton');
}

/** Baton's own cache of the Claude Code / Codex scan (never inside another tool's directory). */
export function importersCacheFile(dataDir: string): string {
  return join(dataDir, 'importers-cache.json');
}

/** A listing file's name (candidate-listing.ts): a hash of the request it answers, `.sealed` when sealed. The CLI opens no other name. */
export const LISTING_FILE_PATTERN = /^listing-[0-9a-f]{32}\.(json|sealed)$/;

/** Listings a running host rendered whole, for the CLI to copy to stdout (candidate-listing.ts). */
export function listingsDir(dataDir: string): string {
  return join(dataDir, 'listings');
}

/**
 * Listings an encrypted store's host renders in the clear, in its endpoint's directory when that
 * is on a memory filesystem (host/listing-place.ts): never on a disk, and the CLI copies them.
 */
export function runtimeListingsDir(endpointDir: string): string {
  return join(endpointDir, 'listings');
}
