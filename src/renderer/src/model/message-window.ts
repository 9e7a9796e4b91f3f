import type { MessageRecord } from '../../../shared/message';
import type { SessionDetail } from '../../../shared/ui-contract';

/**
 * The contiguous run of a session's messages the conversation holds: the newest page at first,
 * grown by older pages as the person scrolls up, or replaced by the page of a jump (first message,
 * search hit) and grown both ways from there.
 */
export interface MessageWindow {
  messages: MessageRecord[];
  /** Messages exist before the first one held. */
  hasOlder: boolean;
  /** Messages exist after the last one held (after a jump); live messages append only when false. */
  hasNewer: boolean;
}

export function windowFromDetail(detail: SessionDetail): MessageWindow {
  return { messages: detail.messages, hasOlder: detail.truncated, hasNewer: false };
}

/** An older page (asked with beforeSeq and `limit`) goes in front; a short page means the start was reached. */
export function prependOlder(window: MessageWindow, page: readonly MessageRecord[], limit: number): MessageWindow {
  const first = window.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
  const older = page.filter((m) => m.seq < first);
  return { messages: [...older, ...window.messages], hasOlder: page.length >= limit && older.length > 0, hasNewer: window.hasNewer };
}

/** A newer page (asked with afterSeq and `limit`) goes at the end; a short page means the newest was reached. */
export function appendNewer(window: MessageWindow, page: readonly MessageRecord[], limit: number): MessageWindow {
  const last = window.messages.at(-1)?.seq ?? -1;
  const newer = page.filter((m) => m.seq > last);
  return { messages: [...window.messages, ...newer], hasOlder: window.hasOlder, hasNewer: page.length >= limit && newer.length > 0 };
}

/** The page of a jump (asked with afterSeq = target - 1) replaces the window. */
export function jumpWindow(page: readonly MessageRecord[], limit: number): MessageWindow {
  return { messages: [...page], hasOlder: (page[0]?.seq ?? 0) > 0, hasNewer: page.length >= limit };
}

/**
 * The session changed (a live append): a window at the newest message takes the new ones; a
 * window that was moved away (hasNewer) stays where the person is reading.
 */
export function mergeLive(window: MessageWindow, detail: SessionDetail): MessageWindow {
  if (window.hasNewer) return window;
  const last = window.messages.at(-1)?.seq ?? -1;
  const fresh = detail.messages.filter((m) => m.seq > last);
  if (fresh.length === 0) return window;
  // The newest page no longer reaches back to what is held: start again from it.
  if ((detail.messages[0]?.seq ?? 0) > last + 1) return windowFromDetail(detail);
  return { ...window, messages: [...window.messages, ...fresh] };
}

/** Index in `shown` of the message holding seq (a folded tool result belongs to the message before it). */
export function indexOfSeq(shown: readonly MessageRecord[], seq: number): number {
  let lo = 0;
  let hi = shown.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (shown[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return Math.max(0, found);
}
