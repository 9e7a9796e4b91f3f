import { nodeDurableFs } from '../fs/durable-fs.js';
import { readEncryptionState } from '../store/at-rest/at-rest-state.js';

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
 * Whether encryption at rest is on for this data directory: its `encryption.json` (issue 17) names
 * a key. A damaged settings file throws (KEY_UNAVAILABLE) rather than letting a clear export through.
 */
export async function atRestEncrypted(dataDir: string): Promise<boolean> {
  return (await readEncryptionState(nodeDurableFs, dataDir)) !== undefined;
}
