import { useEffect, useState } from 'react';

/** Calls `fn` once `ms` after the last call (search boxes, 500 ms per section 9). */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
  timers: { set: typeof setTimeout; clear: typeof clearTimeout } = { set: setTimeout, clear: clearTimeout },
) {
  let id: ReturnType<typeof setTimeout> | undefined;
  const run = (...args: A) => {
    if (id !== undefined) timers.clear(id);
    id = timers.set(() => {
      id = undefined;
      fn(...args);
    }, ms);
  };
  run.cancel = () => id !== undefined && timers.clear(id);
  return run;
}

/** The value, settled for `ms`. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return settled;
}
