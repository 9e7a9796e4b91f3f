/**
 * The bridge the Electron preload exposes as `window.baton` (contextBridge). It carries the UI
 * contract of src/shared/ui-contract.ts; the renderer validates everything that comes back.
 */
export type BridgeResult = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export interface BatonBridge {
  invoke(channel: string, payload: unknown): Promise<BridgeResult>;
  /** Subscribes to a host event; returns the function that unsubscribes. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    baton?: BatonBridge;
  }
}
