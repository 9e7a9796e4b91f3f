/**
 * Where a scroll the conversation made itself is still landing. Opening at the newest and a jump
 * write the pane's offset at once, but the virtualizer reads the offset on the next scroll event:
 * until then the rows it reports as rendered are those of where the pane was. A page asked for from that stale range is the wrong one
 * (an older page on every open, the top of the old window right after "Jump to the newest"), and its
 * answer, put in front, moves the rows under a scroll that has not landed. So no page is asked for
 * until the rendered range holds the message aimed at, or the person scrolls (the range is theirs).
 */
export interface ScrollLanding {
  /** The list scrolled itself to show the message `seq`. */
  aim(seq: number): void;
  /** The person moved the pane (wheel, touch, keys): nothing the list aimed at is pending now. */
  release(): void;
  /**
   * True when nothing is pending, or the rendered range [firstSeq, lastSeq] holds the message aimed
   * at (then nothing is pending any more).
   */
  landed(firstSeq: number, lastSeq: number): boolean;
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
    landed(firstSeq, lastSeq) {
      if (aimedAt !== null && (aimedAt < firstSeq || aimedAt > lastSeq)) return false;
      aimedAt = null;
      return true;
    },
  };
}
