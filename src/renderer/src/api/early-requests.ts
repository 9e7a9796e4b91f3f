import type { UiChannel, UiEvent, UiRequest, UiResponse } from '../../../shared/ui-contract';
import type { BatonApi } from './types';

/**
 * Requests asked as the page's script starts, before React's first render, and handed to the first
 * component that asks the same thing (issue 15). The first screen's hooks ask in effects, after the
 * shell's first render and commit (~200 ms of a new page's main thread): asked early, the host
 * answers while the shell renders, and the first rows wait for neither the round trip nor the host.
 */
interface EarlyAnswer {
  answer: Promise<unknown>;
  stopWatching: () => void;
}
const early = new WeakMap<BatonApi, Map<string, EarlyAnswer>>();

function requestKey(channel: UiChannel, payload: unknown): string {
  return `${channel} ${JSON.stringify(payload)}`;
}

/**
 * Sends the request now; its answer waits for `invokeEarly` with the same channel and payload.
 * `staleOn`: the host event that says the answer changed. Heard before the answer is taken, it
 * drops the answer (the component's listener was not there yet to hear it and ask again).
 */
export function askEarly<C extends UiChannel>(api: BatonApi, channel: C, payload: UiRequest<C>, staleOn: UiEvent): void {
  const answer = api.invoke(channel, payload);
  // Fire and forget until taken: a failure nobody takes (the store is locked, the view changed) is not an unhandled rejection.
  answer.catch(() => undefined);
  let asked = early.get(api);
  if (asked === undefined) {
    asked = new Map();
    early.set(api, asked);
  }
  const key = requestKey(channel, payload);
  asked.get(key)?.stopWatching();
  const stopWatching = api.on(staleOn, () => {
    stopWatching();
    if (asked.get(key)?.answer === answer) asked.delete(key);
  });
  asked.set(key, { answer, stopWatching });
}

/**
 * The early answer to this request, once (its success or its failure, as `invoke` would have
 * given); any later call, a request nobody asked early, or one whose answer went stale goes to the host now.
 */
export function invokeEarly<C extends UiChannel>(api: BatonApi, channel: C, payload: UiRequest<C>): Promise<UiResponse<C>> {
  const key = requestKey(channel, payload);
  const asked = early.get(api);
  const taken = asked?.get(key);
  if (taken === undefined) return api.invoke(channel, payload);
  asked!.delete(key);
  taken.stopWatching();
  return taken.answer as Promise<UiResponse<C>>;
}
