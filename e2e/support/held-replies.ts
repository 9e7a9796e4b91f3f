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
 * else passes straight through. Call before page.goto.
 */
export async function holdReplies(page: Page, channel: string): Promise<{ hold(on: boolean): void; next(match: (payload: Record<string, unknown>) => boolean): Promise<HeldRequest> }> {
  let holding = false;
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
      if (holding && frame.channel === channel) {
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
  };
}

/**
 * Records the pages of messages the page asks the browser host for (its WebSocket frames on
 * `session:messages`); `older()` is the `beforeSeq` of each older page, in order.
 */
export function recordPageRequests(page: Page): { older(): number[] } {
  const older: number[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', (frame) => {
      const request = JSON.parse(String(frame.payload)) as { channel?: string; payload?: { beforeSeq?: unknown } };
      const beforeSeq = request.channel === 'session:messages' ? request.payload?.beforeSeq : undefined;
      // A jump to the newest asks "before the end of time": it is not an older page.
      if (typeof beforeSeq === 'number' && beforeSeq < Number.MAX_SAFE_INTEGER) older.push(beforeSeq);
    }),
  );
  return { older: () => [...older] };
}
