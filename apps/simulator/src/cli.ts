import { parseArgs } from 'node:util';
import { startSimulator } from './simulator';

const USAGE = `Usage: npm run simulate -- --server URL --api-key KEY [options]

  --server URL        Spyglass server (default http://localhost:8080)
  --api-key KEY       the account's API key (or SPYGLASS_API_KEY)
  --devices N         virtual devices, alternating iOS and Android (default 3)
  --rate R            actions per second per device, one item each (default 5)
  --duration S        stop after S seconds (default: run until Ctrl+C)
  --seed N            reproducible devices and traffic
  --id-prefix P       device ids are P-1, P-2, ... (default sim-<hash of the API key>)
  --platform P        ios, android or both (default both)
  --help`;

function number(value: string | undefined, name: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name} must be a non-negative number, got ${value}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'http://localhost:8080' },
      'api-key': { type: 'string' },
      devices: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      seed: { type: 'string' },
      'id-prefix': { type: 'string' },
      platform: { type: 'string', default: 'both' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const apiKey = values['api-key'] ?? process.env.SPYGLASS_API_KEY;
  if (!apiKey) {
    console.error(`An API key is required (Settings → API key).\n\n${USAGE}`);
    process.exit(2);
  }
  if (!['ios', 'android', 'both'].includes(values.platform)) {
    console.error(`--platform must be ios, android or both, got ${values.platform}`);
    process.exit(2);
  }
  const platforms = values.platform === 'both' ? undefined : [values.platform as 'ios' | 'android'];
  const devices = number(values.devices, 'devices', 3)!;
  const rate = number(values.rate, 'rate', 5)!;
  const durationS = number(values.duration, 'duration', undefined);
  const seed = number(values.seed, 'seed', undefined);

  let fatal = false;
  const simulator = await startSimulator({
    serverUrl: values.server,
    apiKey,
    devices,
    rate,
    ...(durationS ? { durationS } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(values['id-prefix'] ? { idPrefix: values['id-prefix'] } : {}),
    ...(platforms ? { platforms } : {}),
    onError: (device, error) => {
      console.error(`[${device.installId}] ${error.fatal ? 'stopped: ' : ''}${error.message}`);
      // One device over the account's limit leaves the others running; a wrong key stops them all.
      if (error.fatal && !fatal && simulator.devices.every((d) => d.client.status === 'failed')) {
        fatal = true;
        void simulator.stop();
      }
    },
  });

  console.log(`Simulating ${devices} device(s) at ${rate} action(s)/s each against ${values.server} (backend ${simulator.backendUrl})`);
  for (const d of simulator.devices) console.log(`  ${d.installId}: ${d.info.name} · ${d.info.systemName} ${d.info.systemVersion} · ${d.info.bundleId} ${d.info.clientAppVersion}`);

  const report = setInterval(() => {
    const s = simulator.stats();
    const total = Object.values(s.actions).reduce((a, n) => a + n, 0);
    console.log(`connected ${s.connected}/${s.devices} · actions ${total} · acknowledged ${s.sdk.acknowledged} · waiting ${s.sdk.queued + s.sdk.unacknowledged} · dropped ${s.sdk.dropped}`);
  }, 5000);
  const stop = () => void simulator.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await simulator.finished;
  clearInterval(report);
  const s = simulator.stats();
  console.log(`Done: ${JSON.stringify(s.actions)}; acknowledged ${s.sdk.acknowledged}, dropped ${s.sdk.dropped}, rejected ${s.sdk.rejected}`);
  process.exit(fatal ? 1 : 0);
}

void main();
