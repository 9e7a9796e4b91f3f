import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MESSAGE_PAGE_SIZE, type SessionDetail } from '../../../../shared/ui-contract';
import { MessageItem } from '../../components/MessageItem';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';
import { appendNewer, indexOfSeq, jumpWindow, mergeLive, prependOlder, windowFromDetail, type MessageWindow } from '../../model/message-window';
import { createPageRequests } from '../../model/page-requests';
import { createScrollLanding } from '../../model/scroll-landing';
import { pairToolResults } from '../../model/pair-tool-results';
import { paintTerms } from './highlight-terms';
import { SessionSearch } from './SessionSearch';

/** Below this many shown messages, with nothing more to load, every message is rendered. */
export const VIRTUALIZE_FROM = 60;
/** First guess of a message's height, before it is measured. */
const ESTIMATED_ROW_PX = 140;
const ROW_GAP_PX = 12;
/** Rows rendered beyond the visible ones, each side. */
const OVERSCAN_ROWS = 4;
/** Load the next page when the first (or last) rendered row is this close to the end of what is held. */
const LOAD_AHEAD_ROWS = 3;

/** A search to open the conversation with (a cross-session hit): its query and the hit's seq. */
export interface InitialSearch {
  query: string;
  seq: number;
}

/**
 * The conversation: a virtualized list (variable heights, @tanstack/react-virtual) over a window
 * of the session's messages. It opens at the newest, loads older pages as the person scrolls up
 * (session:messages, read by seq offset on the host), and jumps to the first message or to any
 * seq (a search hit), growing both ways from there.
 */
export function Conversation({ detail, now, initialSearch }: { detail: SessionDetail; now: number; initialSearch?: InitialSearch }) {
  const api = useApi();
  const { session } = detail;
  const [window_, setWindow] = useState<MessageWindow>(() => windowFromDetail(detail));
  const [loading, setLoading] = useState<'older' | 'newer' | 'jump' | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setWindow((w) => mergeLive(w, detail)), [detail]);

  const paired = useMemo(() => pairToolResults(window_.messages), [window_.messages]);
  const anchors = useMemo(() => new Set(session.context?.anchorMessageIds ?? []), [session.context]);
  const { shown, results } = paired;
  const virtual = shown.length >= VIRTUALIZE_FROM || window_.hasOlder || window_.hasNewer;

  const listRef = useRef<HTMLOListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const scrollElement = useCallback(() => listRef.current?.closest<HTMLElement>('[data-scroll-root]') ?? null, []);
  const virtualizer = useVirtualizer({
    count: virtual ? shown.length : 0,
    getScrollElement: scrollElement,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => shown[index]?.seq ?? index,
    overscan: OVERSCAN_ROWS,
    gap: ROW_GAP_PX,
    scrollMargin,
    // An older page put in front keeps the rows on screen where they were: the virtualizer anchors
    // the row at the top of the pane by its key (the seq) and moves its own offset with the pane's.
    // A write of the pane's scrollTop from here instead was undone by the virtualizer's next size
    // correction, computed from the offset it still held (the pane landed on the page just loaded).
    anchorTo: 'end',
    // …without the rest of anchoring to the end: at the bottom, a row that grows would keep the
    // bottom fixed, so a tool card opened in the newest message would push its own summary up and
    // off screen. A distance from the end is never below 0: nothing is pinned.
    scrollEndThreshold: -1,
  });

  // Where the list starts inside the scrolling pane (the header and details are above it). Measured
  // when what is above it changes size, never on a scroll frame (that would force a layout each frame).
  useLayoutEffect(() => {
    const list = listRef.current;
    const root = scrollElement();
    if (list === null || root === null) return;
    const measure = (): void => {
      const margin = list.getBoundingClientRect().top - root.getBoundingClientRect().top + root.scrollTop;
      setScrollMargin((current) => (Math.abs(margin - current) > 1 ? margin : current));
    };
    measure();
    const observer = new ResizeObserver(measure);
    const section = list.closest('section');
    for (let node = section?.previousElementSibling; node; node = node.previousElementSibling) observer.observe(node);
    for (const child of section?.children ?? []) if (child !== list) observer.observe(child);
    return () => observer.disconnect();
  }, [scrollElement, virtual, shown.length === 0]);

  // A scroll the list makes itself holds back page loads until it lands (model/scroll-landing.ts);
  // the person's own input (wheel, touch, keys, a scrollbar drag) ends the wait at once.
  const landing = useRef(createScrollLanding());
  useEffect(() => {
    const root = scrollElement();
    if (root === null) return;
    const release = (): void => landing.current.release();
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const input of inputs) root.addEventListener(input, release, { passive: true });
    return () => {
      for (const input of inputs) root.removeEventListener(input, release);
    };
  }, [scrollElement, shown.length === 0]);

  // Shows the message `seq` (or the row it is folded into) at the top of the pane.
  const scrollToSeq = useCallback(
    (seq: number) => {
      const index = indexOfSeq(shown, seq);
      virtualizer.scrollToIndex(index, { align: 'start' });
      landing.current.aim(shown[index]!.seq);
    },
    [shown, virtualizer],
  );

  // Opens at the newest message, and again after "Jump to the newest" (which clears `opened`).
  // Keyed on the window itself, not its length: the newest page is often as long as the one it
  // replaces, and the scroll must still happen.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || !virtual || shown.length === 0) return;
    opened.current = true;
    virtualizer.scrollToIndex(shown.length - 1, { align: 'end' });
    landing.current.aim(shown.at(-1)!.seq);
  }, [virtual, shown.length, virtualizer, window_.messages]);

  // A jump's page is in: show the message it was for.
  const pendingSeq = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (pendingSeq.current !== null && virtual) {
      scrollToSeq(pendingSeq.current);
      pendingSeq.current = null;
    }
  }, [window_.messages, scrollToSeq, virtual]);

  // A page asked for before a jump is dropped when it arrives (model/page-requests.ts): the jump
  // replaced the window it belonged to, and the jump owns `loading` until its own page is in.
  const requests = useRef(createPageRequests());
  const load = useCallback(
    (kind: 'older' | 'newer' | 'jump', request: { beforeSeq?: number; afterSeq?: number }, apply: (page: MessageWindow['messages']) => void) => {
      const ticket = kind === 'jump' ? requests.current.jump() : requests.current.grow();
      setLoading(kind);
      setError(null);
      api.invoke('session:messages', { id: session.id, limit: MESSAGE_PAGE_SIZE, ...request }).then(
        ({ messages }) => {
          if (!requests.current.isCurrent(ticket)) return;
          apply(messages);
          setLoading(null);
        },
        (failure: Error) => {
          if (!requests.current.isCurrent(ticket)) return;
          setError(failure.message);
          setLoading(null);
        },
      );
    },
    [api, session.id],
  );

  const jumpTo = useCallback(
    (seq: number) => {
      const held = window_.messages;
      if (held.length > 0 && held[0]!.seq <= seq && seq <= held.at(-1)!.seq && !(seq === 0 && window_.hasOlder)) {
        if (virtual) scrollToSeq(seq);
        else listRef.current?.querySelector(`[data-seq="${indexSeq(shown, seq)}"]`)?.scrollIntoView({ block: 'start' });
        return;
      }
      load('jump', { afterSeq: Math.max(-1, seq - 1) }, (page) => {
        pendingSeq.current = seq;
        setWindow(jumpWindow(page, MESSAGE_PAGE_SIZE));
      });
    },
    [window_, virtual, scrollToSeq, shown, load],
  );
  const [hit, setHit] = useState<{ seq: number | null; terms: string[] }>({ seq: null, terms: [] });
  const highlightSeq = hit.seq;
  const onHit = useCallback(
    (seq: number | null, terms: string[]) => {
      setHit({ seq, terms });
      if (seq !== null) jumpTo(seq);
    },
    [jumpTo],
  );
  // Hit terms painted in the rows on screen (CSS highlights: the DOM is not changed).
  useEffect(() => paintTerms(listRef.current, hit.terms));
  useEffect(() => () => paintTerms(null, []), []);

  const items = virtualizer.getVirtualItems();
  // The virtualizer corrects its own scroll to an index for a few frames after the range first
  // holds the row; a page put in front meanwhile would be corrected to the same index, now another
  // message. Its `isScrolling` stays true until 150 ms after the pane's last scroll.
  const settling = virtualizer.isScrolling;
  const firstIndex = items[0]?.index;
  const lastIndex = items.at(-1)?.index;
  useEffect(() => {
    if (!virtual || loading !== null || error !== null || firstIndex === undefined || lastIndex === undefined) return;
    if (!landing.current.landed(shown[firstIndex]?.seq ?? -1, shown[lastIndex]?.seq ?? -1, settling)) return;
    if (firstIndex <= LOAD_AHEAD_ROWS && window_.hasOlder) {
      const first = window_.messages[0]!.seq;
      load('older', { beforeSeq: first }, (page) => setWindow((w) => prependOlder(w, page, MESSAGE_PAGE_SIZE)));
    } else if (lastIndex >= shown.length - 1 - LOAD_AHEAD_ROWS && window_.hasNewer) {
      const last = window_.messages.at(-1)!.seq;
      load('newer', { afterSeq: last }, (page) => setWindow((w) => appendNewer(w, page, MESSAGE_PAGE_SIZE)));
    }
  }, [virtual, loading, error, firstIndex, lastIndex, settling, window_, shown, load]);

  const toNewest = () =>
    load('jump', { beforeSeq: Number.MAX_SAFE_INTEGER }, (page) => {
      opened.current = false;
      setWindow({ messages: page, hasOlder: page.length >= MESSAGE_PAGE_SIZE, hasNewer: false });
    });

  const row = (index: number) => {
    const message = shown[index]!;
    return (
      <MessageItem
        message={message}
        now={now}
        sessionId={session.id}
        anchor={anchors.has(message.id)}
        results={results}
        highlighted={highlightSeq !== null && indexOfSeq(shown, highlightSeq) === index}
      />
    );
  };

  return (
    <section className="conversation" aria-labelledby="conversation-heading">
      <div className="conversation-bar">
        <h2 className="conversation-heading" id="conversation-heading">
          Conversation{' '}
          <span className="muted" data-testid="message-count">
            · {formatCount(session.messageCount)} {session.messageCount === 1 ? 'message' : 'messages'}
          </span>
        </h2>
        <SessionSearch sessionId={session.id} initialQuery={initialSearch?.query} initialSeq={initialSearch?.seq} onHit={onHit} />
        {(window_.hasOlder || window_.hasNewer) && (
          <div className="conversation-jumps">
            <button type="button" className="button-link" data-testid="jump-first" onClick={() => jumpTo(0)}>
              Jump to the first message
            </button>
            {window_.hasNewer && (
              <button type="button" className="button-link" data-testid="jump-newest" onClick={toNewest}>
                Jump to the newest
              </button>
            )}
          </div>
        )}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="conversation-loading">
        {loading === 'older' ? 'Loading older messages…' : loading === 'newer' ? 'Loading newer messages…' : loading === 'jump' ? 'Loading messages…' : ''}
      </p>
      {error !== null && (
        <p className="inline-error" role="alert">
          Could not load more messages: {error}{' '}
          <button type="button" className="button-link" onClick={() => setError(null)}>
            Retry
          </button>
        </p>
      )}
      {shown.length === 0 ? (
        <p className="muted conversation-empty">This session has no messages yet.</p>
      ) : virtual ? (
        <ol ref={listRef} className="messages messages-virtual" data-testid="messages" data-virtual="true" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => (
            <li key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start - scrollMargin}px)` }}>
              {row(item.index)}
            </li>
          ))}
        </ol>
      ) : (
        <ol ref={listRef} className="messages" data-testid="messages">
          {shown.map((message, index) => (
            <li key={`${message.seq}:${message.id}`}>{row(index)}</li>
          ))}
        </ol>
      )}
    </section>
  );
}

function indexSeq(shown: MessageWindow['messages'], seq: number): number {
  return shown[indexOfSeq(shown, seq)]?.seq ?? seq;
}
