/** A clock for ticking ages (issue #22 § Lists are live: AGE keeps counting without a reload). */
import { useEffect, useState } from 'preact/hooks';

/** The current time in ms, re-rendering the caller every `everyMs` (issue #22 § Lists are live). */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
