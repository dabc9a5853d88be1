import { useEffect, useState } from 'react';

/**
 * A button cool-down that ticks once a second. `start(seconds)` (re)starts it; `remaining` is 0
 * once it is over.
 */
export function useCooldown(): { remaining: number; start(seconds: number): void } {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) {
        setEndsAt(null);
        window.clearInterval(timer);
      }
    }, 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  return {
    remaining,
    start(seconds: number) {
      const current = Date.now();
      setNow(current);
      setEndsAt(current + seconds * 1000);
    },
  };
}
