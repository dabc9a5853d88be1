import { buildApp } from './app';
import type { PeriodicJob } from './jobs/periodic-job';
import { startRetentionJob } from './jobs/retention';
import { startUsageReportJob } from './jobs/usage-report';
import { startDemoCleanupJob } from './jobs/demo-cleanup';

const app = await buildApp();
const { port, host, sharePort, retentionDays } = app.ctx.config;
const jobs: PeriodicJob<unknown>[] = [];

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    // Fastify's close stops accepting, waits for in-flight requests, then runs onClose hooks
    // (which flush pending writes and close the database).
    Promise.all(jobs.map((job) => job.stop())).then(() => app.close()).then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port, host });
  // The share host second: tests read the API's address from the first "Server listening" line.
  await app.shareServer.listen({ port: sharePort, host });
  jobs.push(
    startRetentionJob({
      db: app.ctx.db, blobs: app.ctx.blobs, days: retentionDays, now: app.ctx.now, log: app.log, billing: app.ctx.billing,
      announce: (userId, deviceId, ids) => app.ctx.live.viewers.requestsDeleted(userId, deviceId, ids),
    }),
    startUsageReportJob({ db: app.ctx.db, mailer: app.ctx.mailer, publicUrl: app.ctx.config.publicUrl, now: app.ctx.now, log: app.log }),
  );
  if (app.ctx.config.demoMode) {
    jobs.push(startDemoCleanupJob({ db: app.ctx.db, blobs: app.ctx.blobs, ttlHours: app.ctx.config.demoUserTtlHours, now: app.ctx.now, log: app.log }));
  }
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
