import type { BatonBridge, BridgeResult } from '../api/baton-bridge';

export type Handler = (payload: unknown) => BridgeResult | Promise<BridgeResult>;

/**
 * An in-memory stand-in for the Electron preload's `window.baton` (the Electron runtime cannot
 * run here). Handlers answer per channel; `emit` plays a host event; `calls` records requests.
 */
export class MemoryBridge implements BatonBridge {
  readonly calls: Array<{ channel: string; payload: unknown }> = [];
  readonly handlers = new Map<string, Handler>();
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();

  handle(channel: string, handler: Handler): this {
    this.handlers.set(channel, handler);
    return this;
  }

  async invoke(channel: string, payload: unknown): Promise<BridgeResult> {
    this.calls.push({ channel, payload });
    const handler = this.handlers.get(channel);
    if (handler === undefined) return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `no handler for ${channel}` } };
    return handler(payload);
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(event: string, payload: unknown): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(payload);
  }

  listenerCount(event: string): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  callsTo(channel: string): number {
    return this.calls.filter((call) => call.channel === channel).length;
  }
}

export const okResult = (value: unknown): BridgeResult => ({ ok: true, value });
export const errResult = (code: string, message: string): BridgeResult => ({ ok: false, error: { code, message } });
