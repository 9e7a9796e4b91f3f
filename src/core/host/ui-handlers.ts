import { uiChannels, type UiChannel, type UiRequest, type UiResponse } from '../../shared/ui-contract.js';
import { describeZodError } from '../../shared/manifest.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { HandlerError } from '../../shared/ui-contract.js';
import { isClientLocalChannel, type ClientLocalChannel } from '../../shared/preferences.js';
import { isLockChannel, type LockChannel } from '../../shared/lock-contract.js';

export type HandlerOutcome = { ok: true; value: unknown } | { ok: false; error: HandlerError };

/** Every channel the core answers; preferences are the host shell's (src/shared/preferences.ts). */
/** The lock's channels are the lockable host's (lockable-host.ts): a store that is open has no lock. */
export type UiHandlerTable = { [C in Exclude<UiChannel, ClientLocalChannel | LockChannel>]: (payload: UiRequest<C>) => Promise<UiResponse<C>> };

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
    if (isLockChannel(channel)) {
      // Reached only on a host without a passphrase store: nothing to unlock, nothing to lock.
      if (channel === 'store:lock-state') return { ok: true, value: { state: 'open' } };
      return { ok: false, error: { code: ErrorCode.BAD_REQUEST, message: `"${channel}": this store is not in passphrase mode, so there is nothing to lock or unlock` } };
    }
    const spec = uiChannels[channel as UiChannel];
    const parsed = spec.request.safeParse(payload ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: ErrorCode.BAD_REQUEST, message: `${channel}: ${describeZodError(parsed.error)}` } };
    }
    try {
      const handler = table[channel as Exclude<UiChannel, ClientLocalChannel | LockChannel>] as (p: unknown) => Promise<unknown>;
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
