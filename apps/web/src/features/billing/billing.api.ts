import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  BILLING_ERRORS, CheckoutSessionResponse, CustomerPortalResponse, PlansResponse, Subscription,
  type BillingCycle, type PaidPlanId, type Plan,
} from '@spyglass/protocol';
import { api } from '../../lib/api';
import { ACCOUNT_QUERY_KEY, type Account } from '../../lib/account';
import { SPECIAL_OFFER_KEY } from '../../lib/storage';

/** The account's usage figures (Settings' Usage), one query per range of days under this key. */
export const USAGE_QUERY_KEY = ['billing', 'usage'] as const;

/** The special offer saved from the sign-in page's `special-offer` parameter (spec 000 §2.3). */
export function readSpecialOffer(): string | null {
  try {
    return localStorage.getItem(SPECIAL_OFFER_KEY);
  } catch {
    return null;
  }
}

/** Spec 000 §4.5: a failure to load the plans is only logged. */
export function usePlans(): Plan[] | undefined {
  const offer = readSpecialOffer();
  const query = useQuery({
    queryKey: ['billing', 'plans', offer],
    queryFn: () => api.get('/billing/plans', PlansResponse, { query: { 'special-offer': offer } }).then((r) => r.plans),
    staleTime: 10 * 60_000,
    retry: 1,
  });
  if (query.error) console.error('Failed to load the plans', query.error);
  return query.data;
}

export const createCheckoutSession = (tier: PaidPlanId, billingCycle: BillingCycle, successUrl: string, cancelUrl: string) =>
  api.post('/billing/create-checkout-session', { tier, billingCycle, successUrl, cancelUrl, specialOffer: readSpecialOffer() ?? undefined },
    CheckoutSessionResponse, { errorMessage: 'Failed to start the checkout' });

export const cancelSubscription = (reason: string) =>
  api.post('/billing/cancel', reason ? { reason } : {}, Subscription, { errorMessage: 'Failed to cancel subscription' });

export const reactivateSubscription = () => api.post('/billing/reactivate', {}, Subscription, { errorMessage: BILLING_ERRORS.reactivate });

export const openCustomerPortal = () => api.post('/billing/customer-portal', {}, CustomerPortalResponse, { errorMessage: BILLING_ERRORS.portalSession });

export const chooseFreePlan = (userId: string, billingCycle: BillingCycle) =>
  api.post('/billing/free-subscription', { userId, billingCycle, specialOffer: readSpecialOffer() }, Subscription, {
    errorMessage: 'Failed to choose the free plan',
  });

/** Puts a subscription the server answered into the signed-in account. */
export function useSetSubscription(): (subscription: Subscription) => void {
  const queryClient = useQueryClient();
  return useCallback((subscription: Subscription) => {
    queryClient.setQueryData<Account>(ACCOUNT_QUERY_KEY, (prev) => (prev ? { ...prev, subscription } : prev));
  }, [queryClient]);
}
