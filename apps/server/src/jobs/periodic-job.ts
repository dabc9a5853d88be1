import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob<T> {
  /** One pass now, or the pass already running (two never overlap); resolves when it is done. */
  runOnce(): Promise<T>;
  /** Stops the timer and waits for a running pass, so that the database is not closed under it. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions<T> {
  /** What a pass is called in the log line of a failed one ('retention pass' → 'retention pass failed'). */
  name: string;
  intervalMs: number;
  /** A pass at start too, not only once the first interval has passed. */
  runAtStart: boolean;
  /** One pass; it logs what it did itself, so that a pass asked for by runOnce logs it too. */
  run(): Promise<T>;
  log: FastifyBaseLogger;
}

/**
 * Runs `run` every `intervalMs`. A pass due while the previous one still runs joins it instead of
 * starting a second: a slow pass over a large database must not pile up. The timer does not keep
 * the process alive; a failed pass is logged and the next interval tries again.
 */
export function startPeriodicJob<T>(options: PeriodicJobOptions<T>): PeriodicJob<T> {
  let running: Promise<T> | null = null;
  const runOnce = (): Promise<T> => {
    running ??= options.run().finally(() => { running = null; });
    return running;
  };
  const tick = () => {
    runOnce().catch((err: unknown) => options.log.error({ err }, `${options.name} failed`));
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  if (options.runAtStart) tick();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
