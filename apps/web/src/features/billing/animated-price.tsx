import { PRICE_ANIMATION_STEPS } from '@spyglass/protocol';
import { useEffect, useRef, useState } from 'react';

const STEP_MS = 16;

/** Spec 000 §4.5: a price moves to its new value in 20 steps (monthly ↔ yearly). */
export function AnimatedPrice({ value, currency }: { value: number; currency: string }) {
  const [shown, setShown] = useState(value);
  const from = useRef(value);

  useEffect(() => {
    const start = from.current;
    if (start === value) return;
    let step = 0;
    const timer = window.setInterval(() => {
      step += 1;
      const next = step >= PRICE_ANIMATION_STEPS ? value : start + ((value - start) * step) / PRICE_ANIMATION_STEPS;
      from.current = next;
      setShown(next);
      if (step >= PRICE_ANIMATION_STEPS) window.clearInterval(timer);
    }, STEP_MS);
    return () => window.clearInterval(timer);
  }, [value]);

  const formatted = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), maximumFractionDigits: 0 }).format(shown);
  return <span className="price-amount" data-price={value}>{formatted}</span>;
}
