import { useEffect, useState } from 'react';

/** The search boxes' delay: the list is asked again once the user stops typing. */
export const SEARCH_DELAY_MS = 350;

/** `value`, `delay` ms after it last changed. */
export function useDebounced<T>(value: T, delay = SEARCH_DELAY_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
