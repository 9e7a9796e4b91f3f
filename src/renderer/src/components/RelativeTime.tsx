import { useState, useSyncExternalStore } from 'react';
import { listDatesReady, subscribeListDates } from '../model/list-dates';
import { formatDateTime, isoDay, relativeTime, showsDate } from '../model/relative-time';

/**
 * "5 min ago", with the exact local time on hover and in the machine-readable attribute. The exact
 * time is formatted once the pointer or focus comes, not for every row drawn: the list's first
 * screen (its newest rows, "N min ago") then needs no Intl.DateTimeFormat, whose first use in a
 * page loads ICU's data (20–40 ms of a new page's first frame here, issue 15). A row old enough to
 * show a date shows it as YYYY-MM-DD until the locale's format is made, after the page's next paint
 * (list-dates.ts): the first rows do not wait for ICU.
 */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  const [pointed, setPointed] = useState(false);
  const point = () => setPointed(true);
  const datesReady = useSyncExternalStore(showsDate(iso, now) ? subscribeListDates : subscribeNothing, listDatesReady);
  return (
    <time dateTime={iso} title={pointed ? formatDateTime(iso) : undefined} onPointerEnter={point} onFocus={point}>
      {datesReady ? relativeTime(iso, now) : relativeTime(iso, now, isoDay)}
    </time>
  );
}

const subscribeNothing = (): (() => void) => () => undefined;
