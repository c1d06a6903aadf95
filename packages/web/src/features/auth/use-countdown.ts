import { useEffect, useState } from 'react';

/** Seconds left until `until` (epoch ms), ticking every second; 0 when passed or unset. */
export function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [until]);
  if (until === null) return 0;
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** A wait for people: "15 minutes", "1 minute", "45 seconds" (minutes rounded up past the first one). */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const m = Math.ceil(seconds / 60);
  return `${m} ${m === 1 ? 'minute' : 'minutes'}`;
}

/** "6:55 PM" in the browser's locale and timezone. */
export function formatClock(epochMs: number): string {
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(epochMs));
}
