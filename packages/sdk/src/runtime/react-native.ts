import { commonDeviceFields } from '../device-info';
import { loadInstallId, memoryStorage } from '../install-id';
import type { Runtime } from '../runtime';
import { keyValueUserDefaultsStore } from '../user-defaults';
import { globalWebSocket } from '../websocket';

/**
 * React Native: its WebSocket, no storage of its own (the app passes AsyncStorage as `storage`
 * for a stable device) and no sandbox: Hermes has no WebAssembly, so dynamic mocked routes answer
 * with an error saying so, and Metro never sees the QuickJS package.
 */
export const reactNativeRuntime: Runtime = {
  detectDevice: async () => ({ ...commonDeviceFields(), type: 'React Native' }),
  defaultInstallId: async () => ({ id: await loadInstallId(memoryStorage()) }),
  WebSocket: globalWebSocket,
  // AsyncStorage passed as `storage` keeps user defaults too; without it they last for the run.
  userDefaultsStore: (_device, options) => keyValueUserDefaultsStore(options.userDefaultsStorage ?? options.storage ?? memoryStorage()),
};
