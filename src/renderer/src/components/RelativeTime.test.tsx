// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../model/relative-time';
import { RelativeTime } from './RelativeTime';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const FIVE_MIN_AGO = '2026-11-29T11:55:00.000Z';

describe('RelativeTime (issue 15: the first screen builds no Intl.DateTimeFormat)', () => {
  it('formats the exact time only once the pointer comes, then keeps it as the title', () => {
    const Format = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Format>) {
      return new Format(...args);
    } as typeof Format);
    render(<RelativeTime iso={FIVE_MIN_AGO} now={NOW} />);
    const time = screen.getByText('5 min ago');
    expect(time.getAttribute('datetime')).toBe(FIVE_MIN_AGO);
    expect(time.hasAttribute('title')).toBe(false);
    expect(made).not.toHaveBeenCalled();
    fireEvent.pointerEnter(time);
    expect(time.getAttribute('title')).toBe(formatDateTime(FIVE_MIN_AGO));
  });

  it('a keyboard focus shows it too', () => {
    render(<RelativeTime iso={FIVE_MIN_AGO} now={NOW} />);
    const time = screen.getByText('5 min ago');
    fireEvent.focus(time);
    expect(time.getAttribute('title')).toBe(formatDateTime(FIVE_MIN_AGO));
  });
});
