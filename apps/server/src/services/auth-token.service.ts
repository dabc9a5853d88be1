import type { AppContext } from '../context';
import {
  deleteAuthTokenByHash, touchAuthToken, userByTokenHashFinder, type TokenUserRow,
} from '../repositories/auth-tokens.repository';

/** Renewal writes at most this often per token, so that a busy dashboard does not write on every request. */
const MAX_TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Who a sign-in token belongs to, if it still holds. A token ends when unused for the idle
 * timeout or when older than the absolute lifetime (`AUTH_TOKEN_IDLE_HOURS`,
 * `AUTH_TOKEN_MAX_AGE_HOURS`), so a stolen token does not work forever; each use slides the idle
 * deadline (written at most every tenth of the idle timeout, five minutes at most).
 */
export function tokenAuthenticator(ctx: AppContext): (tokenHash: string) => Promise<TokenUserRow | undefined> {
  const find = userByTokenHashFinder(ctx.database);
  const { idleTimeoutMs, maxAgeMs } = ctx.config.authTokens;
  const touchEveryMs = Math.min(idleTimeoutMs / 10, MAX_TOUCH_INTERVAL_MS);
  return async (tokenHash) => {
    const user = await find(tokenHash);
    if (!user) return undefined;
    const now = ctx.now();
    const idle = idleTimeoutMs > 0 && now - user.token_last_used_at > idleTimeoutMs;
    const old = maxAgeMs > 0 && now - user.token_created_at > maxAgeMs;
    if (idle || old) {
      await deleteAuthTokenByHash(ctx.db, tokenHash);
      return undefined;
    }
    if (idleTimeoutMs > 0 && now - user.token_last_used_at >= touchEveryMs) await touchAuthToken(ctx.db, tokenHash, now);
    return user;
  };
}
