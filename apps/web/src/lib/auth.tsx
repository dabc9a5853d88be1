import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, Subscription } from '@spyglass/protocol';
import { onUnauthorized } from './api';
import { ACCOUNT_QUERY_KEY, fetchAccount, logoutCall, type Account } from './account';
import { readToken, subscribeToken, TOKEN_KEY, writeStoredProfile, writeToken } from './storage';
import { clearThemeAttribute } from './theme';

/** The authentication state of spec 000 §4.1. */
export interface AuthState {
  isAuthenticated: boolean;
  isLoading: boolean;
  isEmailVerified: boolean;
  profile: Profile | null;
  subscription: Subscription | null;
}

export interface Auth extends AuthState {
  /** Stores the token (and the profile when the server sent one), then loads the account. */
  login(token: string, profile?: Profile): Promise<void>;
  logout(): Promise<void>;
  /** Replaces the profile after a call that answered a fresh one (verify e-mail, update e-mail...). */
  setProfile(profile: Profile): void;
}

const AuthContext = createContext<Auth | null>(null);

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, readToken);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const token = useToken();
  const account = useQuery({
    queryKey: ACCOUNT_QUERY_KEY,
    queryFn: fetchAccount,
    enabled: token !== null,
    retry: false,
    staleTime: 5 * 60_000,
    // Coming back to the tab picks up changes made elsewhere (settings, a lock, a verified email).
    refetchOnWindowFocus: true,
  });

  useEffect(() => {
    if (account.error) console.error('Failed to load the account', account.error);
  }, [account.error]);

  // The stored profile follows the fetched one (the API client reads lbg from it).
  useEffect(() => {
    if (account.data) writeStoredProfile(account.data.profile);
  }, [account.data]);

  // A refused token means the session is over (revoked by a password change or a reset
  // elsewhere): back to the sign-in form at the same address.
  useEffect(
    () => onUnauthorized(() => {
      writeToken(null);
      writeStoredProfile(null);
      queryClient.removeQueries();
    }),
    [queryClient],
  );

  const login = useCallback(async (newToken: string, profile?: Profile) => {
    queryClient.removeQueries();
    writeToken(newToken);
    if (profile) writeStoredProfile(profile);
    try {
      await queryClient.fetchQuery({ queryKey: ACCOUNT_QUERY_KEY, queryFn: fetchAccount });
    } catch (error) {
      console.error('Failed to fetch the profile after login', error);
    }
  }, [queryClient]);

  const logout = useCallback(async () => {
    try {
      await logoutCall();
    } catch (error) {
      console.error('Logout call failed', error);
    }
    writeStoredProfile(null);
    clearThemeAttribute();
    // A full load of the site root drops every cached answer and open connection of this user;
    // the token goes last so that nothing renders signed-out screens under the old address.
    localStorage.removeItem(TOKEN_KEY);
    window.location.assign('/');
  }, []);

  const setProfile = useCallback((profile: Profile) => {
    queryClient.setQueryData<Account>(ACCOUNT_QUERY_KEY, (prev) => (prev ? { ...prev, profile } : prev));
    writeStoredProfile(profile);
  }, [queryClient]);

  const value = useMemo<Auth>(() => {
    const data = token !== null ? account.data : undefined;
    return {
      isAuthenticated: data !== undefined,
      isLoading: token !== null && account.isPending && account.fetchStatus !== 'idle',
      isEmailVerified: data?.profile.emailVerified ?? false,
      profile: data?.profile ?? null,
      subscription: data?.subscription ?? null,
      login,
      logout,
      setProfile,
    };
  }, [token, account.data, account.isPending, account.fetchStatus, login, logout, setProfile]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

/** For screens that only render for a signed-in user (everything inside the shell). */
export function useProfile(): Profile {
  const { profile } = useAuth();
  if (!profile) throw new Error('useProfile needs a signed-in user');
  return profile;
}
