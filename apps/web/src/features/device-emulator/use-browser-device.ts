import { createSpyglass, type ConnectionStatus, type ScreenshotInput, type SpyglassClient } from '@spyglass/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DevicePlatform } from '@spyglass/protocol';

/** What the page tells the dashboard about the device it plays. */
export interface BrowserDeviceFields {
  name: string;
  platform: DevicePlatform;
  /** The OS version shown in the device list. */
  systemVersion: string;
  model: string;
  type: string;
}

export interface ActivityLine {
  time: string;
  message: string;
  isError?: boolean;
}

export interface BrowserDeviceOptions {
  apiKey: string | null;
  /** Local storage key of this page's install id: the same browser is the same device next time. */
  installIdKey: string;
  /** Local storage key of this device's user defaults (the emulator's and the companion's are apart). */
  userDefaultsKey: string;
  /** Answers the dashboard's Take Screenshot with the picture of the page's emulated screen. */
  screenshot(): Promise<ScreenshotInput>;
  /** What the dashboard's Capture Screen shows: a stream of the page's emulated screen. */
  screenStream(): MediaStream;
  /** Answers Open Debug Window. */
  onOpenSheet(): void;
}

/** At most this many lines of activity are kept on the page. */
const MAX_ACTIVITY = 200;

export const SIMULATED_REQUEST_PATH = '/healthz';

/**
 * A device played by this browser page through the real SDK (browser build): it connects with the
 * account's API key, answers the dashboard's commands (ping, screenshot, debug window, user
 * defaults, mocks) and records what the page asks it to. The page's own dashboard calls are not
 * captured: the SDK patches no global, only its own `fetch` records.
 */
export function useBrowserDevice(options: BrowserDeviceOptions) {
  const [client, setClient] = useState<SpyglassClient | null>(null);
  const [status, setStatus] = useState<ConnectionStatus | 'off'>('off');
  const [activity, setActivity] = useState<ActivityLine[]>([]);
  const latest = useRef(options);
  latest.current = options;

  const note = useCallback((message: string, isError = false) => {
    setActivity((lines) => [...lines.slice(-(MAX_ACTIVITY - 1)), { time: new Date().toISOString(), message, isError }]);
  }, []);

  const start = useCallback((fields: BrowserDeviceFields) => {
    const { apiKey, installIdKey, userDefaultsKey } = latest.current;
    if (!apiKey) return;
    const started = createSpyglass({
      serverUrl: window.location.origin,
      apiKey,
      installId: installIdFor(installIdKey),
      device: { ...fields, simulator: true, systemName: fields.platform === 'ios' ? 'iOS' : fields.platform === 'android' ? 'Android' : 'Web' },
      capture: { fetch: false, xhr: false, console: false },
      userDefaultsStorage: {
        getItem: () => window.localStorage.getItem(userDefaultsKey),
        setItem: (_key, value) => window.localStorage.setItem(userDefaultsKey, value),
      },
      screenshotCapturer: () => latest.current.screenshot(),
      screenCapture: { stream: () => latest.current.screenStream() },
      onOpenSheet: () => latest.current.onOpenSheet(),
    });
    started.on('status', setStatus);
    started.on('welcome', () => note(`Connected as ${fields.name}`));
    started.on('command', (command) => note(`Command from the dashboard: ${command.name}`));
    started.on('error', (error) => note(error.message, true));
    setStatus(started.status);
    setClient(started);
  }, [note]);

  const stop = useCallback(async () => {
    if (!client) return;
    await client.stop();
    setClient(null);
    setStatus('off');
    note('Stopped');
  }, [client, note]);

  // Leaving the page ends the device's connection.
  useEffect(() => () => void client?.stop(), [client]);

  /** Records a log item as the app would; answers its id (undefined when logs are toggled off). */
  const addTestLog = useCallback((message: string) => {
    const id = client?.log(message, { level: 'info', category: 'emulator' });
    note(id ? `Log sent: ${message}` : 'Logs are turned off for this device', !id);
  }, [client, note]);

  /** A real request through the SDK's fetch, recorded with its answer like any app request. */
  const simulateRequest = useCallback(async (from: 'device-emulator' | 'companion') => {
    if (!client) return;
    const url = new URL(SIMULATED_REQUEST_PATH, window.location.origin);
    url.searchParams.set('from', from);
    try {
      const response = await client.fetch(url.toString(), { headers: { accept: 'application/json' } });
      note(`GET ${url.pathname} answered ${response.status}`);
    } catch (error) {
      note(`GET ${url.pathname} failed: ${(error as Error).message}`, true);
    }
  }, [client, note]);

  return { client, status, activity, note, start, stop, addTestLog, simulateRequest, clearActivity: () => setActivity([]) };
}

/** The page's install id, created once per browser (and forgotten by Reset Device). */
export function installIdFor(key: string): string {
  try {
    const stored = window.localStorage.getItem(key);
    if (stored) return stored;
    const id = crypto.randomUUID();
    window.localStorage.setItem(key, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}
