import { browserFields, commonDeviceFields } from '../device-info';
import { INSTALL_ID_KEY, loadInstallId, memoryStorage, type KeyValueStorage } from '../install-id';
import type { Runtime } from '../runtime';
import { browserScreenCapture } from '../screen-capture/browser-screen-capture';
import { keyValueUserDefaultsStore } from '../user-defaults';
import { globalWebSocket } from '../websocket';

/**
 * Browsers (and other runtimes without Node's modules: workers, Deno, Bun's browser build):
 * the page's WebSocket, `localStorage` (install id and user defaults), and the sandbox loaded when a
 * dynamic route arrives.
 */
export const browserRuntime: Runtime = {
  detectDevice: async () => ({ ...commonDeviceFields(), ...browserFields() }),
  defaultInstallId: async () => ({ id: await loadInstallId(pageStorage()) }),
  WebSocket: globalWebSocket,
  userDefaultsStore: (_device, options) => keyValueUserDefaultsStore(options.userDefaultsStorage ?? pageStorage()),
  loadSandbox: () => import('@spyglass/protocol/sandbox'),
  screenCapture: (options, send) => browserScreenCapture(options.screenCapture, send),
};

/** `localStorage` where the runtime has one and allows it, else memory (one id per page load). */
function pageStorage(): KeyValueStorage {
  try {
    const storage = (globalThis as { localStorage?: KeyValueStorage }).localStorage;
    if (storage) {
      storage.getItem(INSTALL_ID_KEY);
      return storage;
    }
  } catch {
    // storage disabled (privacy mode, sandboxed frame): fall back to memory
  }
  return memoryStorage();
}
