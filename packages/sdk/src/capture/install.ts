import type { LogOptions } from '../items';
import { installXhrMocks } from '../mocks/xhr-mocks';
import type { NodeClientsContext, Runtime } from '../runtime';
import { installConsoleCapture } from './console';
import { createCapturedFetch, type FetchFunction } from './fetch';
import { installXhrCapture } from './xhr';

export interface CaptureFlags {
  fetch: boolean;
  xhr: boolean;
  http: boolean;
  console: boolean;
}

export interface CaptureSetup extends Omit<NodeClientsContext, 'setFetchScope'> {
  flags: CaptureFlags;
  runtime: Runtime;
  recordConsole(message: string, options: LogOptions): void;
  /** The client stopped while Node's clients were still being hooked. */
  stopped(): boolean;
  setFetchScope: NodeClientsContext['setFetchScope'];
}

/**
 * Installs the automatic capture a client asked for and pushes each undo onto `restore`.
 * Answers the client's own captured fetch (which wraps the global fetch as it was before).
 */
export function installCapture(setup: CaptureSetup, restore: (() => void)[]): FetchFunction {
  const { flags, hooks } = setup;
  const originalFetch = globalThis.fetch;
  const fetch = createCapturedFetch(originalFetch.bind(globalThis), hooks);
  if (flags.fetch) {
    globalThis.fetch = fetch;
    restore.push(() => {
      if (globalThis.fetch === fetch) globalThis.fetch = originalFetch;
    });
  }
  if (flags.xhr) {
    // Mocks wrap outside the capture, so that a mocked XMLHttpRequest is still recorded.
    const undo = installXhrCapture(hooks);
    if (undo) restore.push(undo);
    const undoMocks = installXhrMocks(setup.mocks, setup.mayMock, hooks, setup.mockedRequests);
    if (undoMocks) restore.push(undoMocks);
  }
  if (flags.http && setup.runtime.installClients) {
    void setup.runtime.installClients(setup).then((undos) => {
      for (const undo of undos) {
        if (setup.stopped()) undo();
        else restore.push(undo);
      }
    });
  }
  if (flags.console) restore.push(installConsoleCapture(setup.recordConsole));
  return fetch;
}
