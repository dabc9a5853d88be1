import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';
import type { DeviceInfo } from '@spyglass/protocol';
import { WebSocket } from 'ws';
import { installNodeHttpCapture } from '../capture/node-http';
import { installUndiciCapture } from '../capture/undici';
import { commonDeviceFields } from '../device-info';
import { installNodeHttpMocks } from '../mocks/node-http-mocks';
import type { Runtime } from '../runtime';
import type { WebSocketConstructor } from '../websocket';
import { keyValueUserDefaultsStore } from '../user-defaults';
import { claimInstallId } from './node-install-id';
import { jsonFileUserDefaultsStore } from './node-user-defaults';

/**
 * Node: `ws` (Node's own WebSocket is experimental before 22), the host's fields, a small file
 * per app for the install id and one for user defaults, and the clients that bypass fetch
 * (node:http/https, undici).
 */
export const nodeRuntime: Runtime = {
  detectDevice: async () => ({ ...commonDeviceFields(), ...nodeFields() }),
  defaultInstallId: async (device) => claimInstallId(device),
  WebSocket: async () => WebSocket as unknown as WebSocketConstructor,
  userDefaultsStore: (device, options) =>
    options.userDefaultsStorage ? keyValueUserDefaultsStore(options.userDefaultsStorage) : jsonFileUserDefaultsStore(device, options.userDefaultsFile),
  installClients: async ({ hooks, mocks, mayMock, mockedRequests, setFetchScope }) => {
    const insideFetch = new AsyncLocalStorage<true>();
    // Node's fetch reaches undici after awaits of its own: the mark must follow the async context.
    setFetchScope((request) => insideFetch.run(true, request), () => insideFetch.getStore() === true);
    return Promise.all([installNodeHttpCapture(hooks), installUndiciCapture(hooks), installNodeHttpMocks(mocks, mayMock, mockedRequests)]);
  },
  loadSandbox: () => import('@spyglass/protocol/sandbox'),
};

function nodeFields(): Partial<DeviceInfo> {
  const cpus = os.cpus();
  return {
    platform: 'node',
    name: os.hostname(),
    type: 'Node.js',
    version: process.version,
    systemName: os.type(),
    systemVersion: os.release(),
    model: cpus[0]?.model.trim() || os.arch(),
    hardware: os.arch(),
    processorCount: cpus.length,
    activeProcessorCount: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    totalMemory: os.totalmem(),
    physicalMemory: os.totalmem(),
    availableMemory: os.freemem(),
    systemUptime: Math.round(os.uptime()),
  };
}
