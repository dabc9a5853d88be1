import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { TourProgress } from './services/tour-progress.service';
import type { DatabaseHandle, Db } from './db/database';
import type { BlobStore } from './blobs/blob-store';
import type { LiveNode } from './live/live-node';
import type { Mailer } from './plugins/mail';
import type { AuthRateLimiter } from './plugins/rate-limit';
import type { LimiterStore } from './plugins/rate-limiter-store';
import type { UserRow } from './repositories/users.repository';
import type { BillingService } from './services/billing.service';
import type { UsageQuotas } from './services/usage-quota.service';

/** Infrastructure every route and service may use; built once in `buildApp`. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  /** Completes welcome-tour steps as the server sees the user do them. */
  tourProgress: TourProgress;
  /** Bodies too large for a row, and screenshots: one store for the whole node. */
  blobs: BlobStore;
  mailer: Mailer;
  authRateLimiter: AuthRateLimiter;
  /** Where other rate limits count: this process's memory, or Redis shared by every node (REDIS_URL). */
  limiters: LimiterStore;
  /** Viewers, the live bus and device commands of this node. */
  live: LiveNode;
  /** Injectable clock so that expiry and retention can be tested. */
  now(): number;
  /** Plans and subscriptions: free for all when self-hosted, Stripe when hosted. */
  billing: BillingService;
  /** Traffic quotas of the accounts whose devices send to this node. */
  quotas: UsageQuotas;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The signed-in user; set by the auth hook on the protected route tree. */
    user: UserRow;
    /** Hash of the bearer token of this request. */
    tokenHash: string;
  }
}
