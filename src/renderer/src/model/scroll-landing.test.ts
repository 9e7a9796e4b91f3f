import { describe, expect, it } from 'vitest';
import { createScrollLanding } from './scroll-landing';

describe('scroll landing', () => {
  it('nothing aimed at: every range has landed', () => {
    const landing = createScrollLanding();
    expect(landing.landed(0, 10)).toBe(true);
    expect(landing.landed(500, 700)).toBe(true);
  });

  it('a range without the message aimed at has not landed; the first range holding it lands it for good', () => {
    const landing = createScrollLanding();
    landing.aim(99_999);
    // Where the pane was before the write: its top rows, seen before the scroll event.
    expect(landing.landed(99_800, 99_812)).toBe(false);
    expect(landing.landed(99_800, 99_998)).toBe(false);
    expect(landing.landed(99_990, 99_999)).toBe(true);
    // Landed: the person's own scroll back to the top is not held back.
    expect(landing.landed(99_800, 99_812)).toBe(true);
  });

  it('the bounds of the range count as inside it', () => {
    const landing = createScrollLanding();
    landing.aim(0);
    expect(landing.landed(1, 40)).toBe(false);
    expect(landing.landed(0, 0)).toBe(true);
  });

  it('the person scrolling releases the aim even when the range never held it', () => {
    const landing = createScrollLanding();
    landing.aim(4_200);
    expect(landing.landed(9_000, 9_020)).toBe(false);
    landing.release();
    expect(landing.landed(9_000, 9_020)).toBe(true);
  });

  it('a new aim replaces the one still pending', () => {
    const landing = createScrollLanding();
    landing.aim(10);
    landing.aim(900);
    expect(landing.landed(0, 20)).toBe(false);
    expect(landing.landed(890, 910)).toBe(true);
  });
});
