import { formatDateTime, relativeTime } from '../model/relative-time';

/** "5 min ago", with the exact local time on hover and in the machine-readable attribute. */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
