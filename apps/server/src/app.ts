import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { loadConfig, type Config } from './config';
import type { App, AppContext } from './context';
import { migrateToLatest, openDatabase, type OpenOptions } from './db/database';
import { registerErrorHandler } from './plugins/error-handler';
import { authenticate } from './plugins/authenticate';
import { createMailer } from './plugins/mail';
import { registerJsonBodyParser } from './plugins/json-body';
import { createAuthRateLimiter } from './plugins/rate-limit';
import { createLimiterStore } from './plugins/rate-limiter-store';
import { accountBudgetFactory } from './ingest/account-budgets';
import { capConnectionsPerIp, httpServerOptions } from './plugins/http-limits';
import { registerSecurityHeaders } from './plugins/security-headers';
import { loadWebRoot, sendWebFile, sendWebPage, type WebRoot } from './plugins/web-root';
import { createBlobStore } from './blobs/blob-store-factory';
import { DeviceGateway } from './devices/device-gateway';
import { startPresenceSweep } from './jobs/presence-sweep';
import { TourProgress } from './services/tour-progress.service';
import { createLiveNode } from './live/live-node';
import { registerWebSocketUpgrades, viewerUpgradeHandler } from './live/ws-upgrades';
import { analyticsRoutes } from './routes/analytics/analytics.routes';
import { authRoutes, publicAuthRoutes } from './routes/auth/auth.routes';
import { billingRoutes, publicBillingRoutes } from './routes/billing/billing.routes';
import { requireUsableSubscription } from './routes/billing/subscription-gate';
import { BillingService } from './services/billing.service';
import { loadPlansConfig } from './services/billing-plans';
import { UsageQuotas } from './services/usage-quota.service';
import { devicesRoutes } from './routes/devices/devices.routes';
import { mocksRoutes } from './routes/mocks/mocks.routes';
import { sendMocksOnWelcome } from './services/mock-delivery.service';
import { requestsRoutes } from './routes/requests/requests.routes';
import { sessionsRoutes } from './routes/sessions/sessions.routes';
import { adminRoutes } from './routes/admin/admin.routes';
import { applyAdminEmails } from './services/admin.service';
import { userDefaultsRoutes } from './routes/user-defaults/user-defaults.routes';
import { screenCaptureRoutes } from './routes/screen-capture/screen-capture.routes';
import { buildShareServer } from './share/share-server';
import { configRoutes } from './routes/config/config.routes';
import { healthRoutes, versionRoutes } from './routes/health/health.routes';
import { demoUserRoutes, userRoutes } from './routes/user/user.routes';

export interface BuildOptions {
  config?: Partial<Config>;
  /** Extra database options (tests pass a private PostgreSQL schema). */
  database?: Partial<OpenOptions>;
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
  /** The built web client both hosts serve (default `apps/web/dist`). */
  webRoot?: string;
}

export async function buildApp(options: BuildOptions = {}): Promise<App> {
  const config = { ...loadConfig(), ...options.config };
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    ...httpServerOptions(config.http),
    // Graceful close: stop accepting, let in-flight requests finish.
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  capConnectionsPerIp(app.server, config.http.maxConnectionsPerIp);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  await registerSecurityHeaders(app, {
    connectTo: [new URL(config.shareUrl).origin], google: config.googleClientId !== null, referrerPolicy: 'strict-origin-when-cross-origin',
  });

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options.database });
  try {
    await migrateToLatest(database.db, database.engine === 'postgres' ? options.database?.pgSchema : undefined);
  } catch (err) {
    await database.close();
    throw err;
  }
  const now = options.now ?? Date.now;
  // Rate-limit counters: in Redis when the nodes share one, so that limits hold across nodes.
  const limiters = createLimiterStore(config.redisUrl, app.log);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, app.log);
  const billing: BillingService = new BillingService({
    db: database.db, config, plans: loadPlansConfig(config.plansFile), now, log: app.log,
    // An upgrade lifts a quota block at once (spec 000 §4.4).
    subscriptionChanged: (userId): Promise<void> => quotas.planChanged(userId),
  });
  const quotas: UsageQuotas = new UsageQuotas({
    db: database.db, billing, mailer, publicUrl: config.publicUrl, now, log: app.log,
    quotaChanged: (userId, exceeded) => ctx.live.events.quotaChanged(userId, exceeded),
  });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tourProgress: new TourProgress(database.db, app.log, options.now ?? Date.now),
    blobs: createBlobStore(config),
    mailer,
    authRateLimiter: createAuthRateLimiter(config.authRateLimit, limiters),
    limiters,
    live: await createLiveNode({ redisUrl: config.redisUrl, log: app.log }),
    now,
    billing,
    quotas,
  };
  app.decorate('ctx', ctx);
  await applyAdminEmails(ctx);
  const viewerUpgrade = viewerUpgradeHandler(ctx, ctx.live.hub);
  const devices = new DeviceGateway({
    database, blobs: ctx.blobs, events: ctx.live.events, commands: ctx.live.commands,
    log: app.log, limits: config.ingest, now: ctx.now, accountBudgets: accountBudgetFactory(config.ingest, limiters),
    itemsCommitted: (userId, items) => ctx.tourProgress.itemsCommitted(userId, items),
    quotas: ctx.quotas,
    onWelcome: (userId, deviceId, send) => void sendMocksOnWelcome(database.db, app.log, userId, deviceId, ctx.now(), send),
  });
  registerWebSocketUpgrades(app, { viewer: viewerUpgrade.handler, device: devices.handler });
  // Several nodes: the devices of a node that died are marked offline by the others.
  const presence = config.redisUrl ? startPresenceSweep({ db: database.db, events: ctx.live.events, limits: config.ingest, now: ctx.now, log: app.log }) : null;
  app.addHook('preClose', async () => {
    await presence?.stop();
  });
  // Before the HTTP server closes: it waits for upgraded sockets too. Devices go first so that
  // what they sent is committed before the database closes.
  app.addHook('preClose', async () => {
    await devices.close();
    viewerUpgrade.close();
  });
  app.addHook('onClose', async () => {
    await ctx.live.close();
    await ctx.blobs.close();
    await limiters.close();
    ctx.mailer.close();
    await database.close();
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Spyglass API', version: config.serverVersion },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(healthRoutes);
  await app.register(async (api: App) => {
    api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await api.register(publicAuthRoutes);
    await api.register(demoUserRoutes);
    await api.register(versionRoutes);
    await api.register(configRoutes);
    await api.register(publicBillingRoutes);
    await api.register(async (protectedApi: App) => {
      protectedApi.addHook('onRequest', authenticate(ctx));
      protectedApi.addHook('onRequest', requireUsableSubscription(ctx));
      // The OpenAPI document marks as secured exactly the routes behind the auth hook.
      protectedApi.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, security: [{ bearer: [] }] };
      });
      await protectedApi.register(authRoutes);
      await protectedApi.register(userRoutes);
      await protectedApi.register(billingRoutes);
      await protectedApi.register(analyticsRoutes);
      await protectedApi.register(devicesRoutes);
      await protectedApi.register(requestsRoutes);
      await protectedApi.register(mocksRoutes);
      await protectedApi.register(sessionsRoutes);
      await protectedApi.register(adminRoutes);
      await protectedApi.register(userDefaultsRoutes);
      await protectedApi.register(screenCaptureRoutes);
    });
  }, { prefix: '/v1' });

  const webRoot = loadWebRoot(options.webRoot);
  if (webRoot) await registerWebClient(app, webRoot);
  // The public share host is a listener of its own (SHARE_PORT); main.ts and tests make it listen.
  const shareServer = await buildShareServer(ctx, app.log, webRoot);
  app.decorate('shareServer', shareServer);
  app.addHook('preClose', async () => {
    await shareServer.close();
  });
  return app;
}

/** Serves the built dashboard; unknown non-API paths get index.html so client routes work on reload. */
async function registerWebClient(app: App, webRoot: WebRoot): Promise<void> {
  // serve: false: a file is sent only once WebRoot has checked the path it names.
  await app.register(fastifyStatic, { root: webRoot.dir, serve: false });
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendWebPage(reply, webRoot));
  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (url.startsWith('/v1/') || url.startsWith('/ws')) {
      return reply.status(404).send({ error: `Route ${req.method} ${url} not found` });
    }
    const file = await webRoot.fileFor(url);
    if (file) return sendWebFile(reply, file);
    // A missing file stays a 404: answering index.html would hand a script tag HTML.
    if (/\.[a-z0-9]+$/i.test(url)) return reply.status(404).send({ error: 'File not found' });
    return sendWebPage(reply, webRoot);
  });
}
