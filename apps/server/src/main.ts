import { buildApp } from './app';

const app = await buildApp();
const { port, host } = app.ctx.config;

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    // Fastify's close stops accepting, waits for in-flight requests, then runs onClose hooks
    // (which flush pending writes and close the database).
    app.close().then(
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
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
