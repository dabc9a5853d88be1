/** Version of this SDK, sent as `sdkVersion` unless the app overrides it. */
export const SDK_VERSION = '1.1.0';
