import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENCRYPTION_FILE } from '../layout.js';

/**
 * Whether the store at `root` has an encryption settings file at all. Without one it is neither
 * encrypted nor in passphrase mode, and `baton serve` announces its address without loading the
 * at-rest code (zod, scrypt, the seal) first (issue 15). With one, readAtRestSettings decides.
 */
export function atRestSettingsPresent(root: string): boolean {
  return existsSync(join(root, ENCRYPTION_FILE));
}
