const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then a date. Short on purpose:
 * it sits in a narrow list row next to the title.
 */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 'unknown time';
  const age = now - at;
  // Clocks of two machines disagree a little; a few seconds in the future still reads "just now".
  if (age < MINUTE) return age < -MINUTE ? formatDate(at) : 'just now';
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
  if (age < 2 * DAY) return 'yesterday';
  if (age < 7 * DAY) return `${Math.floor(age / DAY)} days ago`;
  return formatDate(at);
}

/**
 * The reader's-locale formats, each made once on first use (not at import: a page whose first screen
 * shows only recent rows needs none, RelativeTime.tsx). `toLocaleString(locale, options)` builds a
 * new Intl.DateTimeFormat on every call (~0.1–0.3 ms in Chromium): a list row asked for two, and
 * the first screen's rows spent 25–30 ms of the page's first frame making them (issue 15).
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat(undefined, options));
}
const dayMonth = lazyFormat({ month: 'short', day: 'numeric' });
const dayMonthYear = lazyFormat({ year: 'numeric', month: 'short', day: 'numeric' });
const dateTime = lazyFormat({ year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const clockTime = lazyFormat({ hour: '2-digit', minute: '2-digit' });

/**
 * Makes the list rows' date format ahead of their first render: main.tsx calls it when the page is
 * idle before the host's first answer. A row older than a week shows a date, and the page's first
 * Intl object loads ICU's data (16–42 ms in a new Chromium page here, issue 15): in the rows'
 * render that was on the way to the first row whenever the newest sessions were that old.
 */
export function prepareListDates(): void {
  dayMonth();
}

/** A date in the reader's locale, with the year only when it is not this year. */
export function formatDate(ms: number, now = Date.now()): string {
  const date = new Date(ms);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return (sameYear ? dayMonth() : dayMonthYear()).format(date);
}

/** Full local date and time, for title attributes and the session header. */
export function formatDateTime(iso: string): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  return dateTime().format(at);
}

/** A message's time: just the clock when it is from today, otherwise a short date and the clock. */
export function formatMessageTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  const date = new Date(at);
  const clock = clockTime().format(date);
  if (date.toDateString() === new Date(now).toDateString()) return clock;
  return `${formatDate(at, now)}, ${clock}`;
}
