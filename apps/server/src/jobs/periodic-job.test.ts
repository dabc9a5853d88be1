import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { startPeriodicJob } from './periodic-job';

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: { level: number; msg: string }[] = [];
  const { log } = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) } } });
  return { log, lines };
}

/** A pass the test finishes when it chooses. */
function gatedPass() {
  let calls = 0;
  let finish: (value: number) => void = () => undefined;
  return {
    get calls() { return calls; },
    finish: (value: number) => finish(value),
    run: () => {
      calls += 1;
      return new Promise<number>((resolve) => { finish = resolve; });
    },
  };
}

// An interval no test reaches: passes here start only at start-up and through runOnce.
const NEVER_MS = 3_600_000;

describe('startPeriodicJob', () => {
  it('runs a pass at start when asked, and a pass asked for while one runs joins it', async () => {
    const pass = gatedPass();
    const job = startPeriodicJob({ name: 'test pass', intervalMs: NEVER_MS, runAtStart: true, run: pass.run, log: recordingLog().log });
    expect(pass.calls).toBe(1);
    const joined = job.runOnce();
    expect(pass.calls).toBe(1);
    pass.finish(7);
    expect(await joined).toBe(7);

    const next = job.runOnce();
    expect(pass.calls).toBe(2);
    pass.finish(8);
    expect(await next).toBe(8);
    await job.stop();
  });

  it('stop waits for the running pass', async () => {
    const pass = gatedPass();
    const job = startPeriodicJob({ name: 'test pass', intervalMs: NEVER_MS, runAtStart: false, run: pass.run, log: recordingLog().log });
    expect(pass.calls).toBe(0);
    void job.runOnce();
    let stopped = false;
    const stopping = job.stop().then(() => { stopped = true; });
    await Promise.resolve();
    expect(stopped).toBe(false);
    pass.finish(1);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('logs a failed pass under its name, and the next pass runs again', async () => {
    const { log, lines } = recordingLog();
    let calls = 0;
    const job = startPeriodicJob({
      name: 'test pass', intervalMs: NEVER_MS, runAtStart: true, log,
      run: () => (calls++ === 0 ? Promise.reject(new Error('database gone')) : Promise.resolve(calls)),
    });
    await expect.poll(() => lines.find((line) => line.msg === 'test pass failed')).toBeDefined();
    expect(await job.runOnce()).toBe(2);
    await job.stop();
  });
});
