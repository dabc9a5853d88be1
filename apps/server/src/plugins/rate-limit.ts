import { RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';
import { memoryLimiterStore, type LimiterStore } from './rate-limiter-store';

export interface AuthRateLimiter {
  /** Consumes one attempt for the IP and, when given, for the e-mail; throws 429 when either is spent. */
  consume(ip: string, email?: string): Promise<void>;
}

/** `store` shares the counters between nodes (Redis) or keeps them in this process. */
export function createAuthRateLimiter(opts: { perIp: number; perEmail: number; windowS: number }, store: LimiterStore = memoryLimiterStore): AuthRateLimiter {
  const byIp = store.limiter({ keyPrefix: 'auth-ip', points: opts.perIp, duration: opts.windowS });
  const byEmail = store.limiter({ keyPrefix: 'auth-email', points: opts.perEmail, duration: opts.windowS });
  return {
    async consume(ip, email) {
      try {
        await byIp.consume(ip);
        if (email) await byEmail.consume(email.toLowerCase());
      } catch (e) {
        if (e instanceof RateLimiterRes) {
          throw tooManyRequests(`Too many attempts, please try again in ${Math.ceil(e.msBeforeNext / 1000)}s`);
        }
        throw e;
      }
    },
  };
}
