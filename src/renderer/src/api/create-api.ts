// First: zod's setting must be made before the contract's schemas are (zod-jitless.ts).
import './zod-jitless';
import { z } from 'zod';
import { HandlerResult, uiChannels, uiEvents, type UiChannel, type UiEvent, type UiEventPayload, type UiRequest, type UiResponse } from '../../../shared/ui-contract';
import { ApiError, ClientErrorCode } from './api-error';
import type { BatonBridge } from './baton-bridge';
import { createBridgeTransport } from './bridge-transport';
import type { EarlyConnection } from './early-connection';
import { createNoTokenTransport } from './no-token-transport';
import { withLocalPreferences } from './local-preferences';
import { safeSessionStorage, takeToken, wsUrlFor } from './token';
import type { BatonApi, Transport } from './types';
import { createWsTransport, type WsTransportOptions } from './ws-transport';

/** How many schema issues an error message lists before it says "and N more". */
export const MAX_LISTED_ISSUES = 3;

const RawResult = HandlerResult(z.unknown());

/** "messages.3.createdAt: Invalid input…; and 2 more" — readable enough to put in a bug report. */
export function describeIssues(error: z.ZodError): string {
  const listed = error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path.length > 0 ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - listed.length;
  return more > 0 ? `${listed.join('; ')}; and ${more} more` : listed.join('; ');
}

/** Puts the contract on top of a transport: every request and answer is validated here. */
export function createApiFromTransport(transport: Transport): BatonApi {
  async function invoke<C extends UiChannel>(channel: C, payload: UiRequest<C>): Promise<UiResponse<C>> {
    const contract = uiChannels[channel];
    const request = contract.request.safeParse(payload);
    if (!request.success) {
      throw new ApiError(ClientErrorCode.BAD_REQUEST, `The renderer built an invalid "${channel}" request: ${describeIssues(request.error)}`, channel);
    }
    const raw = await transport.request(channel, request.data);
    const result = RawResult.safeParse(raw);
    if (!result.success) {
      throw new ApiError(ClientErrorCode.BAD_RESPONSE, `Baton answered "${channel}" with something that is not a result: ${describeIssues(result.error)}`, channel);
    }
    if (!result.data.ok) throw new ApiError(result.data.error.code, result.data.error.message, channel);
    // The generic index loses the link between C and its schema; the map itself is typed.
    const value = (contract.response as unknown as z.ZodType<UiResponse<C>>).safeParse(result.data.value);
    if (!value.success) {
      throw new ApiError(ClientErrorCode.BAD_RESPONSE, `Baton answered "${channel}" with data this window cannot read: ${describeIssues(value.error)}`, channel);
    }
    return value.data;
  }

  function on<E extends UiEvent>(event: E, listener: (payload: UiEventPayload<E>) => void): () => void {
    const schema = uiEvents[event] as unknown as z.ZodType<UiEventPayload<E>>;
    return transport.subscribe(event, (payload) => {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        console.warn(`Baton: dropped a malformed "${event}" event: ${describeIssues(parsed.error)}`);
        return;
      }
      listener(parsed.data);
    });
  }

  return {
    kind: transport.kind,
    invoke,
    on,
    connection: () => transport.connection(),
    onConnection: (listener) => transport.onConnection(listener),
    close: () => transport.close(),
  };
}

export interface CreateApiOptions {
  /** Defaults to the page's window; tests pass their own. */
  window?: Window;
  /** Passed to the WebSocket transport (tests shorten timeouts and backoff). */
  ws?: Omit<WsTransportOptions, 'url' | 'early'>;
  /** The socket the page's first module opened (early-connection.ts): the transport adopts it and its token. */
  early?: EarlyConnection;
}

/**
 * Picks the transport: the Electron preload's `window.baton` when present, otherwise the browser
 * host's WebSocket at /ws on the address that served the page, authenticated by its token.
 */
export function createApi(options: CreateApiOptions = {}): BatonApi {
  const win = options.window ?? window;
  const bridge: BatonBridge | undefined = win.baton;
  if (bridge !== undefined) return createApiFromTransport(createBridgeTransport(bridge));

  // The browser host keeps client-local preferences in this page's localStorage (the desktop shell: electron-store).
  const storage = safeLocalStorage(win);
  const { early } = options;
  if (early !== undefined) return createApiFromTransport(withLocalPreferences(createWsTransport({ ...options.ws, url: early.url, early: early.socket }), storage));
  const token = takeToken({ location: win.location, history: win.history, sessionStorage: safeSessionStorage(win) });
  if (token === null) return createApiFromTransport(withLocalPreferences(createNoTokenTransport(), storage));
  return createApiFromTransport(withLocalPreferences(createWsTransport({ ...options.ws, url: wsUrlFor(win.location, token) }), storage));
}

function safeLocalStorage(win: Window): Storage | undefined {
  try {
    return win.localStorage;
  } catch {
    return undefined;
  }
}
