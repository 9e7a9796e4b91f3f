/**
 * Whether a clear export must be asked for explicitly. With encryption at rest on (issue 17), a
 * bundle may never leave in clear by accident: it is encrypted to a passphrase or a paired device,
 * or the user passes --plain (which always warns). With it off, a clear export is the default.
 */
export type ExportEncryption = 'passphrase' | 'device' | 'none';

export function exportNeedsEncryption(atRestEncrypted: boolean, chosen: ExportEncryption): boolean {
  return atRestEncrypted && chosen === 'none';
}
