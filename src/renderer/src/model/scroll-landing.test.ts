import { describe, expect, it } from 'vitest';
import { createScrollLanding } from './scroll-landing';

describe('scroll landing', () => {
  it('nothing aimed at: every range has landed, scrolling or not (the person scrolls)', () => {
    const landing = createScrollLanding();
    expect(landing.landed(0, 10, false)).toBe(true);
    expect(landing.landed(500, 700, true)).toBe(true);
  });

  it('a range without the message aimed at has not landed; the first still range holding it lands it for good', () => {
    const landing = createScrollLanding();
    landing.aim(99_999);
    // Where the pane was before the write: its top rows, seen before the scroll event.
    expect(landing.landed(99_800, 99_812, false)).toBe(false);
    expect(landing.landed(99_800, 99_998, false)).toBe(false);
    // The row is rendered, but the virtualizer is still correcting its scroll to it.
    expect(landing.landed(99_990, 99_999, true)).toBe(false);
    expect(landing.landed(99_990, 99_999, false)).toBe(true);
    // Landed: the person's own scroll back to the top is not held back.
    expect(landing.landed(99_800, 99_812, true)).toBe(true);
  });

  it('the bounds of the range count as inside it', () => {
    const landing = createScrollLanding();
    landing.aim(0);
    expect(landing.landed(1, 40, false)).toBe(false);
    expect(landing.landed(0, 0, false)).toBe(true);
    landing.aim(40);
    expect(landing.landed(41, 80, false)).toBe(false);
    expect(landing.landed(0, 40, false)).toBe(true);
  });

  it('the person scrolling releases the aim even when the range never held it', () => {
    const landing = createScrollLanding();
    landing.aim(4_200);
    expect(landing.landed(9_000, 9_020, false)).toBe(false);
    landing.release();
    expect(landing.landed(9_000, 9_020, true)).toBe(true);
  });

  it('a new aim replaces the one still pending', () => {
    const landing = createScrollLanding();
    landing.aim(10);
    landing.aim(900);
    expect(landing.landed(0, 20, false)).toBe(false);
    expect(landing.landed(890, 910, false)).toBe(true);
  });
});
