import type { HostInfo } from '../../../../shared/ui-contract';

/** Encryption at rest in the sidebar footer: said once, plainly, whether or not the store is encrypted. */
export function EncryptionFooter({ encryption }: { encryption: HostInfo['encryption'] }) {
  if (encryption === undefined) return null;
  return (
    <span data-testid="encryption-status" data-encryption-state={encryption.state} title={encryption.detail} className={encryption.state === 'off' ? 'encryption-off' : undefined}>
      {encryption.state === 'on' ? 'Encrypted at rest' : 'Not encrypted at rest'}
    </span>
  );
}
