/**
 * The Spyglass device SDK, Node entry (Node 20+, ESM and CommonJS): captures fetch, node:http and
 * https (axios, got…) and the undici package. Start with {@link createSpyglass}.
 */
import { createClient } from './client';
import type { SpyglassClient, SpyglassOptions } from './options';
import { nodeRuntime } from './runtime/node';

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
  return createClient(options, nodeRuntime);
}

/** `Spyglass.start(options)` is {@link createSpyglass}. */
export const Spyglass = { start: createSpyglass } as const;
