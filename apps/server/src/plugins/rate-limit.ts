import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';
import { memoryLimiterStore, type LimiterStore } from './rate-limiter-store';

export interface AuthRateLimiter {
  /** Consumes one attempt for the IP and, when given, for the e-mail; throws 429 when either is spent. */
  consume(ip: string, email?: string): Promise<void>;
  /**
   * Before a password is checked: throws 429 when this client has failed too often on this account,
   * or when the account has failed too often from anywhere and this client never signed in to it.
   */
  beforeSignIn(ip: string, email: string): Promise<void>;
  signInFailed(ip: string, email: string): Promise<void>;
  /** Forgets the client's failures on the account and remembers the client as the owner's. */
  signInSucceeded(ip: string, email: string): Promise<void>;
  /** An e-mail change (each answer tells whether an address is taken): per account and per IP. */
  consumeEmailChange(ip: string, userId: string): Promise<void>;
}

export interface AuthRateLimits {
  /** Auth requests per IP per window. */
  perIp: number;
  /** Mails asked for one address, and failed sign-ins on one account (from one client, and from unknown clients), per window. */
  perEmail: number;
  windowS: number;
  /** E-mail changes one account may ask for per hour. */
  emailChangesPerHour?: number;
}

/**
 * How long a client that signed in to an account is remembered as the owner's (the memory store
 * expires keys with a timer, which cannot exceed 24.8 days).
 */
const KNOWN_CLIENT_S = 20 * 24 * 60 * 60;
const DEFAULT_EMAIL_CHANGES_PER_HOUR = 5;

const retryAfter = (ms: number) => tooManyRequests(`Too many attempts, please try again in ${Math.ceil(ms / 1000)}s`);

async function consumeOr429(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw retryAfter(e.msBeforeNext);
    throw e;
  }
}

/**
 * The login protection of OWASP's Authentication Cheat Sheet, after rate-limiter-flexible's
 * "login endpoint protection" pattern: failures are counted per (account, client IP) and per
 * account. A stranger who fails on an account blocks only himself on it; failures spread over
 * many addresses block the account only for clients that never signed in to it, so the owner on
 * a known address still gets in. Successful sign-ins cost no account points. `store` shares the
 * counters between nodes (Redis) or keeps them in this process.
 */
export function createAuthRateLimiter(opts: AuthRateLimits, store: LimiterStore = memoryLimiterStore): AuthRateLimiter {
  const byIp = store.limiter({ keyPrefix: 'auth-ip', points: opts.perIp, duration: opts.windowS });
  const byEmail = store.limiter({ keyPrefix: 'auth-email', points: opts.perEmail, duration: opts.windowS });
  const failsByPair = store.limiter({ keyPrefix: 'signin-fail-pair', points: opts.perEmail, duration: opts.windowS });
  const failsByAccount = store.limiter({ keyPrefix: 'signin-fail-account', points: opts.perEmail, duration: opts.windowS });
  const knownClients = store.limiter({ keyPrefix: 'signin-known', points: 1, duration: KNOWN_CLIENT_S });
  const emailChanges = store.limiter({
    keyPrefix: 'email-change', points: opts.emailChangesPerHour ?? DEFAULT_EMAIL_CHANGES_PER_HOUR, duration: 60 * 60,
  });
  const pair = (ip: string, email: string) => `${email.toLowerCase()}\n${ip}`;
  const spent = (res: RateLimiterRes | null) => res !== null && res.consumedPoints >= opts.perEmail;

  return {
    async consume(ip, email) {
      await consumeOr429(byIp, ip);
      if (email) await consumeOr429(byEmail, email.toLowerCase());
    },

    async beforeSignIn(ip, email) {
      await consumeOr429(byIp, ip);
      const [mine, account, known] = await Promise.all([
        failsByPair.get(pair(ip, email)), failsByAccount.get(email.toLowerCase()), knownClients.get(pair(ip, email)),
      ]);
      if (spent(mine)) throw retryAfter(mine!.msBeforeNext);
      if (!known && spent(account)) throw retryAfter(account!.msBeforeNext);
    },

    async signInFailed(ip, email) {
      // Points beyond the limit are simply not counted: the check above already refuses.
      await Promise.all([failsByPair.consume(pair(ip, email)), failsByAccount.consume(email.toLowerCase())].map((p) => p.catch(() => undefined)));
    },

    async signInSucceeded(ip, email) {
      await failsByPair.delete(pair(ip, email));
      await knownClients.set(pair(ip, email), 1, KNOWN_CLIENT_S);
    },

    async consumeEmailChange(ip, userId) {
      await consumeOr429(byIp, ip);
      await consumeOr429(emailChanges, userId);
    },
  };
}
