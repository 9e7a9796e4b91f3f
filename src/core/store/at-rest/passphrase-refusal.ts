/**
 * Set when this process needed a passphrase-mode key and no running, unlocked host gave it: the
 * CLI exits 6 (EXIT.locked) however the command reported the refusal. No imports: the CLI's entry
 * reads it, and must not pay for loading the store to do so.
 */
let refused = false;

export function passphraseRefused(): boolean {
  return refused;
}

export function markPassphraseRefused(): void {
  refused = true;
}
