import crypto from 'node:crypto';
import type { DeviceInfo } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient, type SpyglassError, type SpyglassOptions, type SpyglassStats } from '@spyglass/sdk';
import { startFakeBackend, type FakeBackend } from './backend';
import { deviceProfile, type MobilePlatform } from './device-profiles';
import { createRandom } from './random';
import { ACTION_KINDS, DEFAULT_MIX, VirtualApp, type ActionKind, type TrafficMix } from './traffic';
import { userDefaultsStorage } from './user-defaults';

export interface SimulatorOptions {
  /** Spyglass server, e.g. http://localhost:8080. */
  serverUrl: string;
  apiKey: string;
  /** Virtual devices, alternating iOS and Android unless `platforms` says otherwise. Default 3. */
  devices?: number;
  /** Actions per second per device (each makes one item). 0: devices connect and stay idle. Default 5. */
  rate?: number;
  /** Stop by itself after this many seconds. */
  durationS?: number;
  /** Same seed, same devices and the same sequence of actions. */
  seed?: number;
  /**
   * Device ids are `<idPrefix>-<n>`, so a second run reuses the devices of the first. Device ids
   * are unique across accounts, so the default prefix is derived from the API key: `sim-<hash>`.
   */
  idPrefix?: string;
  platforms?: readonly MobilePlatform[];
  /** Relative frequency of each action kind. */
  mix?: Partial<TrafficMix>;
  /** Port of the fake backend the virtual apps call (0: any free port). */
  backendPort?: number;
  /** Passed to every device's SDK (outbox bounds, reconnect timing, a WebSocket class...). */
  sdk?: Partial<Omit<SpyglassOptions, 'serverUrl' | 'apiKey' | 'device' | 'installId'>>;
  onError?: (device: VirtualDevice, error: SpyglassError) => void;
}

export interface VirtualDevice {
  index: number;
  /** The id this device says hello with (and the dashboard shows it under). */
  installId: string;
  info: DeviceInfo;
  client: SpyglassClient;
  app: VirtualApp;
  /** Performs one action now (a chosen kind, or one drawn from the mix). */
  act(kind?: ActionKind): Promise<void>;
}

export interface SimulatorStats {
  devices: number;
  connected: number;
  actions: Record<ActionKind, number>;
  /** Sum of the devices' SDK counters (outbox sizes and limits summed; backpressure if any device has it). */
  sdk: Omit<SpyglassStats, 'status'>;
}

export interface Simulator {
  backendUrl: string;
  devices: VirtualDevice[];
  stats(): SimulatorStats;
  /** Resolves once every device's captured items are acknowledged. */
  flush(): Promise<void>;
  /** Resolves when every device is connected. */
  connected(): Promise<void>;
  /** Resolves when the run ends: `stop()` or the duration elapsed. */
  finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `devices` virtual phones on the real SDK against a Spyglass server, each making
 * realistic traffic through a local fake backend at `rate` actions per second.
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const count = options.devices ?? 3;
  const rate = options.rate ?? 5;
  const random = createRandom(options.seed);
  const mix: TrafficMix = { ...DEFAULT_MIX, ...options.mix };
  const platforms = options.platforms?.length ? options.platforms : (['ios', 'android'] as const);
  const prefix = options.idPrefix ?? `sim-${crypto.createHash('sha256').update(options.apiKey).digest('hex').slice(0, 10)}`;
  const backend: FakeBackend = await startFakeBackend(options.backendPort);
  const actions = Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>;
  const pending = new Set<Promise<void>>();

  const devices: VirtualDevice[] = Array.from({ length: count }, (_, index) => {
    const own = random.fork();
    const platform = platforms[index % platforms.length]!;
    const info = deviceProfile(index, platform, own);
    const installId = `${prefix}-${index + 1}`;
    const client = createSpyglass({
      reconnect: { initialDelayMs: 500, maxDelayMs: 10_000 },
      userDefaultsStorage: userDefaultsStorage(info, installId),
      ...options.sdk,
      serverUrl: options.serverUrl,
      apiKey: options.apiKey,
      installId,
      device: info,
      capture: { fetch: false, xhr: false, http: false, console: false },
      random: own.fork().next,
      screenshotCapturer: () => app.screenshot(),
      onOpenSheet: () => void client.log('Spyglass sheet opened', { level: 'info', category: 'spyglass' }),
      onError: (error) => options.onError?.(device, error),
    });
    const app = new VirtualApp(client, backend.url, own.fork());
    const act = (kind?: ActionKind) => {
      const chosen = kind ?? own.weighted(mix);
      actions[chosen]++;
      const done = app.act(chosen);
      pending.add(done);
      return done.finally(() => pending.delete(done));
    };
    const device: VirtualDevice = { index, installId, info, client, app, act };
    return device;
  });

  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let durationTimer: ReturnType<typeof setTimeout> | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  if (rate > 0) {
    // Fine-grained ticks carry high rates; the budget keeps the average exact at any tick jitter.
    const tickMs = Math.max(10, Math.min(1000, Math.floor(1000 / rate)));
    let last = Date.now();
    const budget = devices.map(() => 0);
    timer = setInterval(() => {
      const now = Date.now();
      const elapsed = now - last;
      last = now;
      devices.forEach((device, i) => {
        // A phone without a connection keeps being used: its SDK buffers until it is back.
        if (device.client.status === 'failed' || device.client.status === 'stopped') return;
        budget[i]! += (rate * elapsed) / 1000;
        for (; budget[i]! >= 1; budget[i]!--) void device.act();
      });
    }, tickMs);
  }

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    clearTimeout(durationTimer);
    await Promise.allSettled([...pending]);
    await Promise.allSettled(devices.map((d) => d.client.flush()).map((p) => withTimeout(p, 5000)));
    await Promise.all(devices.map((d) => d.client.stop()));
    await backend.close();
    finish();
  };
  if (options.durationS) durationTimer = setTimeout(() => void stop(), options.durationS * 1000);

  return {
    backendUrl: backend.url,
    devices,
    finished,
    stop,
    flush: async () => {
      await Promise.allSettled([...pending]);
      await Promise.all(devices.map((d) => d.client.flush()));
    },
    connected: () => Promise.all(devices.map((d) => waitConnected(d.client))).then(() => undefined),
    stats: () => {
      const counters = { queued: 0, unacknowledged: 0, acknowledged: 0, dropped: 0, rejected: 0, bytes: 0, maxBytes: 0, skipped: 0 };
      let connected = 0;
      let backpressure = false;
      let quotaExceeded = false;
      for (const d of devices) {
        const stats = d.client.stats();
        if (stats.status === 'connected') connected++;
        backpressure ||= stats.backpressure;
        quotaExceeded ||= stats.quotaExceeded;
        for (const key of Object.keys(counters) as (keyof typeof counters)[]) counters[key] += stats[key];
      }
      return { devices: devices.length, connected, actions: { ...actions }, sdk: { ...counters, backpressure, quotaExceeded } };
    },
  };
}

function waitConnected(client: SpyglassClient): Promise<void> {
  if (client.status === 'connected') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const offStatus = client.on('status', (status) => {
      if (status === 'connected') {
        offStatus();
        offError();
        resolve();
      }
    });
    const offError = client.on('error', (error) => {
      if (!error.fatal) return;
      offStatus();
      offError();
      reject(error);
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => void setTimeout(() => resolve(undefined), ms).unref?.())]);
}
