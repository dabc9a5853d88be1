/**
 * The Spyglass device SDK, React Native entry: captures fetch and XMLHttpRequest; pass
 * `storage: AsyncStorage` for a stable device. Start with {@link createSpyglass}.
 */
import { createClient } from './client';
import type { SpyglassClient, SpyglassOptions } from './options';
import { reactNativeRuntime } from './runtime/react-native';

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
  return createClient(options, reactNativeRuntime);
}

/** `Spyglass.start(options)` is {@link createSpyglass}. */
export const Spyglass = { start: createSpyglass } as const;
