/** The two Electron IPC channels that carry the whole UI contract (requests and events). */
export const IPC_INVOKE = 'baton:invoke';
export const IPC_EVENT = 'baton:event';
