import { Profile } from '@spyglass/protocol';
import type { ZodType } from 'zod';

/** Local storage keys of spec 000 §9. */
export const TOKEN_KEY = 'token';
export const PROFILE_KEY = 'profile';
export const SPECIAL_OFFER_KEY = 'special-offer';

/**
 * The token the app runs with. It is read from storage once at start and then changed only by
 * sign-in, sign-out or another tab: sign-up stores a token for the next visit without signing this
 * page in (spec 000 §4.1 keeps the form in sign-in mode after sign-up).
 */
let sessionToken: string | null = readStoredToken();
const tokenListeners = new Set<() => void>();

function readStoredToken(): string | null {
  // Storage can be missing (unit tests in Node) or refused (privacy settings): then nobody is signed in.
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

function notifyToken(): void {
  tokenListeners.forEach((listener) => listener());
}

export function readToken(): string | null {
  return sessionToken;
}

export function writeToken(token: string | null): void {
  if (token === null) localStorage.removeItem(TOKEN_KEY);
  else localStorage.setItem(TOKEN_KEY, token);
  sessionToken = token;
  notifyToken();
}

/** Keeps a token for the next visit without changing the signed-in state of this page. */
export function storeTokenForLater(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

// Signing in or out in another tab changes who this tab is: a fresh load drops every cached
// answer of the previous user instead of mixing the two.
function onStorage(event: StorageEvent): void {
  if (event.key !== TOKEN_KEY && event.key !== null) return;
  if (readStoredToken() !== sessionToken) window.location.reload();
}

export function subscribeToken(listener: () => void): () => void {
  if (tokenListeners.size === 0) window.addEventListener('storage', onStorage);
  tokenListeners.add(listener);
  return () => {
    tokenListeners.delete(listener);
    if (tokenListeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The last profile seen; the API client reads loadBalancerGroup from it, main.tsx the theme. */
export function readStoredProfile(): Profile | null {
  const raw = localStorage.getItem(PROFILE_KEY);
  if (!raw) return null;
  try {
    const parsed = Profile.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeStoredProfile(profile: Profile | null): void {
  if (profile === null) localStorage.removeItem(PROFILE_KEY);
  else localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
}

/**
 * A JSON value kept in local storage, checked against its schema when read: a missing, refused
 * (privacy settings) or stale value reads as null, and a refused write is dropped, because what
 * is remembered there is a convenience, never something the page depends on.
 */
export function readLocalJson<T>(key: string, schema: ZodType<T>): T | null {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    if (!raw) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeLocalJson(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or refused storage: the choice is simply not remembered.
  }
}
