import type { FastifyBaseLogger } from 'fastify';
import { DeviceMocksResult, type CommandFrame, type DeviceMocks } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { conflict, isDomainError } from '../errors';
import type { DeviceCommands } from '../live/device-commands';
import { findItemMocksForDevice } from '../repositories/item-mocks.repository';
import { findEnabledRoutesForDevice } from '../repositories/mocked-routes.repository';

/**
 * Delivers a device's mocks (docs/protocol.md §6, `mocks` command): the whole set, after each
 * welcome and after every change. Each set carries the time it was read as its revision, so a
 * device that receives two sets out of order keeps the newer one.
 */
export async function buildDeviceMocks(db: Db, userId: string, deviceId: string, now: number): Promise<DeviceMocks> {
  const [routes, itemMocks] = await Promise.all([findEnabledRoutesForDevice(db, userId, deviceId), findItemMocksForDevice(db, userId, deviceId)]);
  return {
    revision: now,
    // The console log is the dashboard's business, not the device's.
    routes: routes.map((route) => ({ id: route.id, createdAt: route.createdAt, mockData: { ...route.mockData, consoleLog: [] } })),
    itemMocks,
  };
}

/**
 * Sends the set and waits for the device's answer: 409 'Device is offline' when no node holds a
 * connection to it (POST /v1/mocked-routes/{id}/publish).
 */
export async function publishDeviceMocks(db: Db, commands: DeviceCommands, userId: string, deviceId: string, now: number): Promise<{ routes: number; itemMocks: number }> {
  const mocks = await buildDeviceMocks(db, userId, deviceId, now);
  const result = await commands.send(userId, deviceId, 'mocks', mocks);
  // An SDK that does not apply mocks (an older one) says so; the dashboard shows its words.
  if (!result.ok) throw conflict(`The device did not apply the mocks: ${result.error ?? 'no reason given'}`);
  const counts = DeviceMocksResult.safeParse(result.data);
  return counts.success ? counts.data : { routes: mocks.routes.length, itemMocks: mocks.itemMocks.length };
}

/** After a change: sends the set if the device is online anywhere, without waiting for it. */
export function pushDeviceMocks(db: Db, commands: DeviceCommands, log: FastifyBaseLogger, userId: string, deviceId: string, now: number): void {
  publishDeviceMocks(db, commands, userId, deviceId, now).catch((err: unknown) => {
    // Offline devices get the set on their next welcome; refusals are the device's business.
    if (isDomainError(err, 'conflict')) log.debug({ deviceId, reason: err.message }, 'mocks not delivered');
    else log.warn({ err, deviceId }, 'sending mocks to a device failed');
  });
}

/**
 * Right after a device's welcome, on the connection itself (the result frame is not awaited).
 * A device starts every connection without mocks, so an empty set is not sent.
 */
export async function sendMocksOnWelcome(db: Db, log: FastifyBaseLogger, userId: string, deviceId: string, now: number, send: (frame: CommandFrame) => boolean): Promise<void> {
  try {
    const mocks = await buildDeviceMocks(db, userId, deviceId, now);
    if (mocks.routes.length === 0 && mocks.itemMocks.length === 0) return;
    send({ type: 'command', id: `mocks-${deviceId}-${now}`, name: 'mocks', args: mocks });
  } catch (err) {
    log.error({ err, deviceId }, 'loading the mocks of a connecting device failed');
  }
}
