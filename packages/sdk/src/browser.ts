/**
 * The Spyglass device SDK, browser entry: captures fetch and XMLHttpRequest; dynamic mocked
 * routes load their WebAssembly sandbox when the first one arrives. Start with
 * {@link createSpyglass}.
 */
import { createClient } from './client';
import type { SpyglassClient, SpyglassOptions } from './options';
import { browserRuntime } from './runtime/browser';

export * from './public';

/**
 * Starts Spyglass: connects this app as a device of the account of `apiKey` and streams what it
 * captures. Errors the app must know about (a wrong key, an unsupported protocol version, the
 * device limit) arrive through `onError` and the `error` event, with `fatal: true`.
 *
 * @example
 * const spyglass = createSpyglass({ serverUrl: 'https://spyglass.example.com', apiKey: 'sg_live_...' });
 * spyglass.log('Checkout opened', { level: 'info' });
 */
export function createSpyglass(options: SpyglassOptions): SpyglassClient {
  return createClient(options, browserRuntime);
}

/** `Spyglass.start(options)` is {@link createSpyglass}. */
export const Spyglass = { start: createSpyglass } as const;
