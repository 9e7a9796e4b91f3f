import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../shared/message';
import { appendNewer, indexOfSeq, jumpWindow, mergeLive, prependOlder, windowFromDetail } from './message-window';
import { detail, message } from '../test-support/fixtures';

const run = (from: number, to: number): MessageRecord[] => Array.from({ length: to - from }, (_, i) => message(from + i));
const seqs = (m: MessageRecord[]) => [m[0]?.seq, m.at(-1)?.seq, m.length];

describe('message window', () => {
  it('grows from the newest page to the first message, page by page', () => {
    let w = windowFromDetail({ ...detail('s', run(800, 1000)), truncated: true });
    expect(w.hasOlder).toBe(true);
    for (let before = 800; before > 0; before -= 200) w = prependOlder(w, run(Math.max(0, before - 200), before), 200);
    expect(seqs(w.messages)).toEqual([0, 999, 1000]);
    w = prependOlder(w, [], 200);
    expect(w.hasOlder).toBe(false);
  });

  it('a jump replaces the window; newer pages append until the newest; live messages wait until then', () => {
    let w = jumpWindow(run(0, 200), 200);
    expect([w.hasOlder, w.hasNewer]).toEqual([false, true]);
    const live = detail('s', run(900, 1001));
    expect(mergeLive(w, live)).toBe(w);
    w = appendNewer(w, run(200, 350), 200);
    expect([w.hasNewer, ...seqs(w.messages)]).toEqual([false, 0, 349, 350]);
    // The newest page no longer overlaps: start from it.
    expect(seqs(mergeLive(w, live).messages)).toEqual([900, 1000, 101]);
    // It overlaps: only the new ones are appended.
    expect(seqs(mergeLive(w, detail('s', run(300, 352))).messages)).toEqual([0, 351, 352]);
  });

  it('finds the shown message holding a seq, folded tool results included', () => {
    const shown = [message(0), message(1), message(4), message(9)];
    expect([0, 1, 2, 3, 4, 8, 9, 50].map((s) => indexOfSeq(shown, s))).toEqual([0, 1, 1, 1, 2, 2, 3, 3]);
  });
});
