import type { Page, WebSocketRoute } from '@playwright/test';

/** A request of one channel the page sent, and a way to let the host's answer through to the page. */
export interface HeldRequest {
  payload: Record<string, unknown>;
  release(): void;
}

/**
 * Sits between the page and the browser host's WebSocket (Playwright's routeWebSocket, the real host
 * behind it): while holding, answers to `channel` are kept back until the test releases them, in the
 * order it chooses — how a slow host or network delivers pages late and out of order. Everything
 * else passes straight through; `asked()` is every request of `channel` the page sent, held or not.
 * Call before page.goto. The desktop app talks to its host over IPC, not this WebSocket: specs
 * that use this run on the browser host only (playwright.config.ts).
 */
export async function holdReplies(
  page: Page,
  channel: string,
): Promise<{ hold(on: boolean): void; next(match: (payload: Record<string, unknown>) => boolean): Promise<HeldRequest>; asked(): Record<string, unknown>[] }> {
  let holding = false;
  const asked: Record<string, unknown>[] = [];
  const held = new Map<number, { payload: Record<string, unknown>; reply: string | null; released: boolean; send: (m: string) => void }>();
  const waiters: { match: (payload: Record<string, unknown>) => boolean; resolve: (request: HeldRequest) => void }[] = [];

  const heldRequest = (id: number): HeldRequest => {
    const entry = held.get(id)!;
    return {
      payload: entry.payload,
      release() {
        entry.released = true;
        if (entry.reply !== null) entry.send(entry.reply);
      },
    };
  };

  await page.routeWebSocket(/\/ws/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { id: number; channel: string; payload: Record<string, unknown> };
      if (frame.channel === channel) asked.push(frame.payload);
      if (frame.channel === channel && holding) {
        held.set(frame.id, { payload: frame.payload, reply: null, released: false, send: (m) => ws.send(m) });
        const at = waiters.findIndex((w) => w.match(frame.payload));
        if (at >= 0) waiters.splice(at, 1)[0]!.resolve(heldRequest(frame.id));
      }
      server.send(message);
    });
    server.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { kind: string; id?: number };
      const entry = frame.kind === 'response' && frame.id !== undefined ? held.get(frame.id) : undefined;
      if (entry === undefined || entry.released) ws.send(message);
      else entry.reply = String(message);
    });
  });

  return {
    hold(on) {
      holding = on;
    },
    next(match) {
      for (const [id, entry] of held) if (!entry.released && match(entry.payload)) return Promise.resolve(heldRequest(id));
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    asked: () => [...asked],
  };
}
