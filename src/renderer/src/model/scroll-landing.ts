/**
 * Where a scroll the conversation made itself is still landing. Opening at the newest and a jump
 * write the pane's offset at once, but the virtualizer reads the offset on the next scroll event:
 * until then the rows it reports as rendered are those of where the pane was. A page asked for
 * from that stale range is the wrong one (an older page on every open, the top of the old window
 * right after "Jump to the newest"). Once the range is right, the virtualizer still corrects its
 * scroll to the row's index for a few frames, and a page put in front meanwhile would be corrected
 * to the same index, now another message. So no page is asked for until the rendered range holds
 * the message aimed at and the pane has stopped scrolling, or until the person scrolls (the range
 * is theirs then).
 */
export interface ScrollLanding {
  /** The list scrolled itself to show the message `seq` (a seq of a rendered row). */
  aim(seq: number): void;
  /** The person moved the pane (wheel, touch, keys): nothing the list aimed at is pending now. */
  release(): void;
  /**
   * True when nothing is pending, or when the rendered range [firstSeq, lastSeq] holds the message
   * aimed at and the pane is not `scrolling` any more (then nothing is pending from now on).
   */
  landed(firstSeq: number, lastSeq: number, scrolling: boolean): boolean;
}

export function createScrollLanding(): ScrollLanding {
  let aimedAt: number | null = null;
  return {
    aim(seq) {
      aimedAt = seq;
    },
    release() {
      aimedAt = null;
    },
    landed(firstSeq, lastSeq, scrolling) {
      if (aimedAt === null) return true;
      if (scrolling || aimedAt < firstSeq || aimedAt > lastSeq) return false;
      aimedAt = null;
      return true;
    },
  };
}
