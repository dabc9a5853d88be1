/**
 * What a device SDK needs at run time, free of zod so that it adds only a few kilobytes to an
 * app's bundle: the protocol's constants and limits and the pure mock matching. Device SDKs take
 * the shapes as types from the main entry (`import type`) and check on the device only what the
 * server would refuse a whole batch for (packages/sdk/src/item-check.ts).
 */
export { INTERCEPTED_HEADER } from './constants';
export * from './device-constants';
export * from './screen-capture-constants';
export * from './user-defaults-constants';
export * from './item-limits';
export * from './mocks/mock-limits';
export { compileItemMocks, compileRoutes, MockRuleSet } from './mocks/matching';
export { mapRemoteUrl, parseRequestUrl } from './mocks/url-pattern';
