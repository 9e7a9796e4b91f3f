/** "4:59" under an hour, "1 h 05 min" above, "expired" at or past zero: for expiry countdowns. */
export function formatTimeLeft(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return 'expired';
  const totalSeconds = Math.ceil(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Milliseconds until an ISO instant (negative once past; NaN-free: an unreadable date counts as expired). */
export function msUntil(iso: string, now: number): number {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? at - now : Number.NEGATIVE_INFINITY;
}

/** What a countdown says: "9:36 left" (a bare "9:36" reads like a time of day), or "expired". */
export function timeLeftLabel(ms: number): string {
  const left = formatTimeLeft(ms);
  return left === 'expired' ? left : `${left} left`;
}
