import { z } from 'zod';
import { Id, IsoDate } from '../common';
import { ITEM_LIMITS } from '../items';
import { MockData } from './mocked-routes';

/**
 * What a device applies (docs/protocol.md §6, `mocks` command): the enabled mocked routes of the
 * device and the mocks set on its captured items. The server sends the whole set after each
 * welcome and after every change; a device keeps the set with the greatest `revision`.
 */
export const DeviceMockedRoute = z.object({
  id: Id,
  createdAt: IsoDate,
  mockData: MockData,
});
export type DeviceMockedRoute = z.infer<typeof DeviceMockedRoute>;

/** A mock set from a captured item (spec 001 §3 MockData), as the device needs it. */
export const DeviceItemMock = z.object({
  /** The captured item: answers carry `Spyglass-Intercepted: <itemId>`. */
  itemId: z.string().min(1).max(100),
  method: z.string().max(20),
  /** The URL pattern (the item's mockedUrl, else its URL). */
  url: z.string().max(ITEM_LIMITS.maxUrlLength),
  statusCode: z.number().int().min(100).max(599),
  headers: z.record(z.string(), z.string()),
  body: z.string().max(ITEM_LIMITS.maxBodyBytes),
  delayMs: z.number().int().min(0).max(120_000),
  /** When the mock was set: among item mocks for the same request, the newest wins. */
  updatedAt: IsoDate,
});
export type DeviceItemMock = z.infer<typeof DeviceItemMock>;

export const DeviceMocks = z.object({
  /** Increases with every set the server builds for this device (milliseconds since the epoch). */
  revision: z.number().int().nonnegative(),
  routes: z.array(DeviceMockedRoute),
  itemMocks: z.array(DeviceItemMock),
});
export type DeviceMocks = z.infer<typeof DeviceMocks>;

/** The device's result data for the `mocks` command. */
export const DeviceMocksResult = z.object({
  routes: z.number().int().nonnegative(),
  itemMocks: z.number().int().nonnegative(),
});
export type DeviceMocksResult = z.infer<typeof DeviceMocksResult>;
