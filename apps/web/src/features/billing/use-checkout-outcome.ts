import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Subscription } from '@spyglass/protocol';
import { ACCOUNT_QUERY_KEY } from '../../lib/account';

const POLL_MS = 1000;
const MAX_POLLS = 60;

/**
 * After a return from Checkout with `subscription=success` the plan changes only once Stripe's
 * webhook reached the server: the account is reloaded every second until a paid plan shows
 * (at most a minute).
 */
export function useAwaitPaidPlan(waiting: boolean, subscription: Subscription | null): void {
  const queryClient = useQueryClient();
  const settled = subscription !== null && subscription.plan !== 'free' && (subscription.status === 'active' || subscription.status === 'trialing');
  useEffect(() => {
    if (!waiting || settled) return;
    let polls = 0;
    const timer = window.setInterval(() => {
      polls += 1;
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
      if (polls >= MAX_POLLS) window.clearInterval(timer);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, settled, queryClient]);
}
