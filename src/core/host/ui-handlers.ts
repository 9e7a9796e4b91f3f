import { uiChannels, type UiChannel, type UiRequest, type UiResponse } from '../../shared/ui-contract.js';
import { describeZodError } from '../../shared/manifest.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { HandlerError } from '../../shared/ui-contract.js';
import { isClientLocalChannel, type ClientLocalChannel } from '../../shared/preferences.js';

export type HandlerOutcome = { ok: true; value: unknown } | { ok: false; error: HandlerError };

/** Every channel the core answers; preferences are the host shell's (src/shared/preferences.ts). */
export type UiHandlerTable = { [C in Exclude<UiChannel, ClientLocalChannel>]: (payload: UiRequest<C>) => Promise<UiResponse<C>> };

/**
 * Wraps the typed handler table into the one function both hosts call: validate the payload
 * with the channel's schema, run the handler, turn a thrown error into {ok: false, error}.
 */
export function createUiDispatcher(table: UiHandlerTable) {
  return async function dispatch(channel: string, payload: unknown): Promise<HandlerOutcome> {
    if (!Object.hasOwn(uiChannels, channel)) {
      return { ok: false, error: { code: ErrorCode.UNKNOWN_METHOD, message: `Unknown channel "${channel}"` } };
    }
    if (isClientLocalChannel(channel)) {
      return { ok: false, error: { code: ErrorCode.UNKNOWN_METHOD, message: `"${channel}" is client-local: the window's host shell answers it, never the Baton core` } };
    }
    const spec = uiChannels[channel as UiChannel];
    const parsed = spec.request.safeParse(payload ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: ErrorCode.BAD_REQUEST, message: `${channel}: ${describeZodError(parsed.error)}` } };
    }
    try {
      const handler = table[channel as Exclude<UiChannel, ClientLocalChannel>] as (p: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      // Anything can be thrown (a string, null): the answer must still match HandlerError.
      const code = (error as { code?: unknown } | null)?.code;
      const message = error instanceof Error ? error.message : `${channel} failed: ${String(error)}`;
      return { ok: false, error: { code: typeof code === 'string' ? code : ErrorCode.INTERNAL, message } };
    }
  };
}
export type UiDispatcher = ReturnType<typeof createUiDispatcher>;
