import type { FastifyRequest } from 'fastify';
import { trialExpired } from '../../errors';
import type { AppContext } from '../../context';

/**
 * What an account whose subscription is not usable may still call: its profile and settings, its
 * plan (to upgrade), sign-out. Everything else answers 402 with trialExpired (spec 000 §4.1, §6).
 */
const OPEN_PREFIXES = ['/v1/user', '/v1/auth/', '/v1/billing/', '/v1/analytics/'];

/** An onRequest hook after authentication on the protected route tree. */
export function requireUsableSubscription(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!ctx.billing.enabled) return;
    const url = request.routeOptions.url ?? '';
    if (OPEN_PREFIXES.some((prefix) => url.startsWith(prefix))) return;
    if (!(await ctx.billing.isUsable(request.user))) throw trialExpired();
  };
}
