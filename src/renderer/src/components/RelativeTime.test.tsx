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

  it('a row older than a week: its day as YYYY-MM-DD with no Intl object made, the locale\'s date after the next paint', async () => {
    // Fresh modules: the list dates' state is the page's, and React must be the one the component uses.
    vi.resetModules();
    const Format = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Format>) {
      return new Format(...args);
    } as typeof Format);
    const testing = await import('@testing-library/react');
    const { RelativeTime: Fresh } = await import('./RelativeTime');
    const old = Date.parse('2026-10-03T12:00:00.000Z');
    testing.render(<Fresh iso={new Date(old).toISOString()} now={NOW} />);
    const day = `2026-10-0${new Date(old).getDate()}`;
    expect(testing.screen.getByText(day).tagName).toBe('TIME');
    expect(made).not.toHaveBeenCalled();
    const localeDate = new Date(old).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
    expect(await testing.screen.findByText(localeDate)).toBeTruthy();
    expect(testing.screen.queryByText(day)).toBeNull();
    testing.cleanup();
  });
});

