import { Profile, Subscription, SuccessBody } from '@spyglass/protocol';
import { api } from './api';

/** What the signed-in user is: fetched together at start (spec 000 §4.1). */
export interface Account {
  profile: Profile;
  subscription: Subscription;
}

export const ACCOUNT_QUERY_KEY = ['account'] as const;

export const getUser = () => api.get('/user', Profile, { errorMessage: 'Failed to fetch user' });
export const getSubscription = () => api.get('/billing/subscription', Subscription, { errorMessage: 'Failed to fetch user' });

export async function fetchAccount(): Promise<Account> {
  const [profile, subscription] = await Promise.all([getUser(), getSubscription()]);
  return { profile, subscription };
}

export const logoutCall = () => api.post('/auth/logout', {}, SuccessBody);
