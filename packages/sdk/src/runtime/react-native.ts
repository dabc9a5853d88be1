import { commonDeviceFields } from '../device-info';
import { loadInstallId, memoryStorage } from '../install-id';
import type { Runtime } from '../runtime';
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
};
