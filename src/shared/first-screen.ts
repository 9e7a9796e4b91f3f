/**
 * The first screen's answers sent without being asked (issue 15). A new page opens its socket
 * before React, zod and the UI contract evaluate (~60–110 ms of its main thread), but a request
 * can only be written on it once that evaluation ends (its `open` event waits for it), and then
 * the host's `agents:list` work (15–70 ms) came on top. A socket whose address carries
 * FIRST_SCREEN_QUERY asks for FIRST_SCREEN_REQUESTS (first-screen-requests.ts): the host answers
 * them as soon as it accepts the socket, while the page still evaluates; the page's transport
 * hands each answer to its first identical request instead of sending it.
 *
 * Imports nothing: the page's first module (early-connection.ts) imports this, and a module it
 * shares with the lazy views' chunks makes the bundler split the entry (zod and the contract into
 * chunks of their own, evaluated before it).
 */

/** Appended to the early socket's address (never to a reconnect's: it would be answered twice). */
export const FIRST_SCREEN_QUERY = 'first=1';

/** Whether a socket's address (its search part) asks for the first screen. */
export function asksFirstScreen(search: URLSearchParams): boolean {
  const [name, value] = FIRST_SCREEN_QUERY.split('=');
  return search.get(name!) === value;
}
