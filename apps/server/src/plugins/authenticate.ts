import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import { sha256 } from '../lib/crypto';
import type { AppContext } from '../context';
import { isTrue } from '../db/database';
import { ACCOUNT_LOCKED_MESSAGE } from '../services/auth.service';
import { tokenAuthenticator } from '../services/auth-token.service';

/** Paths a locked user may still call: who am I, my plan, sign out. */
const LOCKED_ALLOWED = new Set(['/v1/user', '/v1/billing/subscription', '/v1/auth/logout']);

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** The onRequest hook of the protected route tree. */
export function authenticate(ctx: AppContext) {
  const findUser = tokenAuthenticator(ctx);
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const tokenHash = sha256(token);
    const user = await findUser(tokenHash);
    if (!user) throw unauthorized();
    if (isTrue(user.is_locked) && !LOCKED_ALLOWED.has(request.routeOptions.url ?? '')) throw forbidden(ACCOUNT_LOCKED_MESSAGE);
    request.user = user;
    request.tokenHash = tokenHash;
  };
}
