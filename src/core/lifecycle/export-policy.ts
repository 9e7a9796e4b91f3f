import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether a clear export must be asked for explicitly. With encryption at rest on (issue 17), a
 * bundle may never leave in clear by accident: it is encrypted to a passphrase or a paired device,
 * or the user passes --plain (which always warns). With it off, a clear export is the default.
 */
export type ExportEncryption = 'passphrase' | 'device' | 'none';

export function exportNeedsEncryption(atRestEncrypted: boolean, chosen: ExportEncryption): boolean {
  return atRestEncrypted && chosen === 'none';
}

/**
 * Whether encryption at rest is on for this data directory. Issue 17 (built in parallel) keeps its
 * state in `encryption.json` at the data directory's root; at merge this reads its parsed state.
 */
export const AT_REST_STATE_FILE = 'encryption.json';
export async function atRestEncrypted(dataDir: string): Promise<boolean> {
  return existsSync(join(dataDir, AT_REST_STATE_FILE));
}
