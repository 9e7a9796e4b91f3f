import { z } from 'zod';

/**
 * The unlock screen's channels (issue 17, passphrase mode): spread into uiChannels, answered by the
 * host's lock (src/core/host/lockable-host.ts), never by the store's handler table — a locked host
 * has no store. A host whose store has no passphrase answers `store:lock-state` with `open`.
 */
/** Longest passphrase the unlock screen sends (the core also refuses more than MAX_PASSPHRASE_BYTES of UTF-8). */
export const MAX_PASSPHRASE_CHARS = 1024;

export const LockState = z.object({
  /** `open`: not a passphrase store (nothing to unlock); `locked` / `unlocked`: passphrase mode. */
  state: z.enum(['open', 'locked', 'unlocked']),
  /** The data directory the passphrase opens (shown on the unlock screen); absent for an open store. */
  dataDir: z.string().optional(),
  /** After wrong passphrases: how long before the next attempt is heard. */
  retryAfterMs: z.number().int().nonnegative().optional(),
});
export type LockState = z.infer<typeof LockState>;

export const lockChannels = {
  'store:lock-state': { request: z.object({}), response: LockState },
  /** Derives the key (scrypt), checks its id, opens the store. The passphrase is never logged or echoed back. */
  'store:unlock': { request: z.object({ passphrase: z.string().min(1).max(MAX_PASSPHRASE_CHARS) }), response: LockState },
  /** Closes the store and drops the key from memory: the CLI is refused (exit 6) until the next unlock. */
  'store:lock': { request: z.object({}), response: LockState },
} as const;
export type LockChannel = keyof typeof lockChannels;

export function isLockChannel(channel: unknown): channel is LockChannel {
  return typeof channel === 'string' && Object.hasOwn(lockChannels, channel);
}
