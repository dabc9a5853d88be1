import { z } from 'zod';
import type { Device } from '@spyglass/protocol';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { findDevice } from '../repositories/devices.repository';

export const DEVICE_NOT_FOUND = 'Device not found';
export const REQUEST_NOT_FOUND = 'Request not found';

export const DeviceIdParams = z.object({ id: z.string().min(1).max(200) });

/**
 * For answers built from our own rows (items mapped in repositories/item-columns.ts after ingest
 * validated them): pages of up to 5000 items skip re-validation on the way out, while the route's
 * schema still documents the shape in the OpenAPI document.
 */
export const serializeTrusted = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/** The signed-in account's device, or 404: a foreign device is answered exactly like a missing one. */
export async function requireDevice(ctx: AppContext, userId: string, deviceId: string): Promise<Device> {
  const device = await findDevice(ctx.db, userId, deviceId, ctx.now());
  if (!device) throw notFound(DEVICE_NOT_FOUND);
  return device;
}
