import type { KeyStore } from '../key-store.js';

/** A key store in this process's memory: an encrypted store for tests that need no Secret Service. */
export function memoryKeyStore(): KeyStore {
  const secrets = new Map<string, Buffer>();
  return {
    label: 'memory',
    read: async (account) => secrets.get(account),
    write: async (account, secret) => void secrets.set(account, Buffer.from(secret)),
    remove: async (account) => secrets.delete(account),
  };
}
