import { useEffect, useState } from 'react';

/** Relative times ("5 min ago") are re-rendered this often. */
export const NOW_TICK_MS = 30_000;

export function useNow(tickMs = NOW_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
