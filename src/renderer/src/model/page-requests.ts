/**
 * Which answers for pages of messages still belong to the window on screen. A jump (to the first
 * message, a search hit, the newest) replaces the window, so a page asked for the window before it
 * (an older page requested by scrolling up, still in flight when the person clicked) must be
 * dropped when it arrives: applied to the new window it would join seqs that are not contiguous
 * and move the scroll position, and its "done" would let more loads start while the jump is still
 * in flight. Each request takes a ticket; a jump's ticket makes every earlier one stale.
 */
export interface PageRequests {
  /** A ticket for a page that grows the current window (older or newer). */
  grow(): number;
  /** A ticket for a jump: every ticket taken before it is stale from now on. */
  jump(): number;
  /** The ticket's answer may still be applied (no jump was asked for since it was taken). */
  isCurrent(ticket: number): boolean;
}

export function createPageRequests(): PageRequests {
  let generation = 0;
  return {
    grow: () => generation,
    jump: () => ++generation,
    isCurrent: (ticket) => ticket === generation,
  };
}
