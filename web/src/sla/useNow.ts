import { useEffect, useState } from 'react';

/**
 * The current time, re-rendered every `everyMs` while `active`: a countdown ticks in the browser
 * from the due instant it was given, with no request to the server.
 */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
