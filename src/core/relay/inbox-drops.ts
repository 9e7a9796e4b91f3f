import type { SessionStore } from '../store/types.js';

/**
 * Handoffs this device's inbox refused or gave up on, by reason, from the store's event log (the
 * inbox writes one `relay-target`/`dropped` event per terminated message). Survives host restarts,
 * so `baton relay status` can report them without the host running.
 */
export async function readInboxDrops(store: SessionStore): Promise<Record<string, number>> {
  const dropped: Record<string, number> = {};
  for (const event of await store.readEvents()) {
    if (event.side !== 'relay-target' || event.category !== 'dropped') continue;
    const reason = typeof event.reason === 'string' ? event.reason : 'UNKNOWN';
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  }
  return dropped;
}
