import { z } from 'zod';
import {
  BreakpointBody, DeletedCountResponse, Device, DEVICE_CLOSE_CODES, DeviceCommandResponse, SuccessBody, UpdateDeviceBody,
  type CommandName,
} from '@spyglass/protocol';
import type { App } from '../../context';
import { notFound, upstreamFailed } from '../../errors';
import { clearDeviceItems } from '../../repositories/items.repository';
import { deleteDevice, findDevicesForUser, updateDevice } from '../../repositories/devices.repository';
import { DEVICE_NOT_FOUND, DeviceIdParams, requireDevice } from '../route-helpers';

/** Remote actions of the device sidebar (spec 001 §2), each a command the device answers. */
const COMMAND_ROUTES: Array<{ path: string; command: CommandName; timeoutMs: number }> = [
  { path: 'send-ping', command: 'ping', timeoutMs: 5000 },
  // Capturing and encoding a screen can take a few seconds on an old phone.
  { path: 'take-screenshot', command: 'take_screenshot', timeoutMs: 15_000 },
  { path: 'open-spyglass-sheet', command: 'open_sheet', timeoutMs: 5000 },
];

export async function devicesRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const { viewers, commands } = ctx.live;

  /** Settings reach a connected device at once; an offline one gets them in its next welcome. */
  const forward = (userId: string, deviceId: string, name: CommandName, args: Record<string, unknown>) => {
    commands.send(userId, deviceId, name, args).catch(() => {});
  };

  app.get('/devices', { schema: { response: { 200: z.array(Device) } } }, async (req) =>
    findDevicesForUser(ctx.db, req.user.id, ctx.now()));

  app.get('/devices/:id', { schema: { params: DeviceIdParams, response: { 200: Device } } }, async (req) =>
    requireDevice(ctx, req.user.id, req.params.id));

  // The dashboard sends the whole device (spec 001 §4); only name, group and feature toggles are
  // editable. A name or group sent back unchanged is not pinned: the device's own stays in force.
  app.put('/devices/:id', { schema: { params: DeviceIdParams, body: UpdateDeviceBody, response: { 200: Device } } }, async (req) => {
    const current = await requireDevice(ctx, req.user.id, req.params.id);
    const { name, group, featureToggles } = req.body;
    const patch = {
      ...(name !== undefined && name !== current.name ? { name } : {}),
      ...(group !== undefined && group !== current.group ? { group } : {}),
      ...(featureToggles ? { featureToggles } : {}),
    };
    const device = await updateDevice(ctx.db, req.user.id, req.params.id, patch, ctx.now());
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    viewers.deviceUpdate(req.user.id, device);
    if (featureToggles) forward(req.user.id, device.id, 'feature_toggles', { featureToggles: device.featureToggles });
    return device;
  });

  app.delete('/devices/:id', { schema: { params: DeviceIdParams, response: { 200: SuccessBody } } }, async (req) => {
    if (!(await deleteDevice(ctx.db, ctx.blobs, req.user.id, req.params.id))) throw notFound(DEVICE_NOT_FOUND);
    // A connection left open would keep sending items of a device that no longer exists.
    commands.disconnect(req.user.id, req.params.id, DEVICE_CLOSE_CODES.deviceDeleted, 'Device deleted');
    viewers.deviceDeleted(req.user.id, req.params.id);
    return { success: true as const };
  });

  app.delete('/devices/:id/requests', { schema: { params: DeviceIdParams, response: { 200: DeletedCountResponse } } }, async (req) => {
    await requireDevice(ctx, req.user.id, req.params.id);
    const deleted = await clearDeviceItems(ctx.db, ctx.blobs, req.user.id, req.params.id);
    viewers.requestsCleared(req.user.id, req.params.id);
    return { success: true as const, deleted };
  });

  app.post('/devices/:id/breakpoint', { schema: { params: DeviceIdParams, body: BreakpointBody, response: { 200: Device } } }, async (req) => {
    const { breakpointEnabled } = req.body;
    const device = await updateDevice(ctx.db, req.user.id, req.params.id, { breakpointEnabled }, ctx.now());
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    viewers.deviceUpdate(req.user.id, device);
    forward(req.user.id, device.id, 'breakpoint', { breakpointEnabled });
    return device;
  });

  for (const { path, command, timeoutMs } of COMMAND_ROUTES) {
    app.get(`/devices/:id/${path}`, { schema: { params: DeviceIdParams, response: { 200: DeviceCommandResponse } } }, async (req) => {
      await requireDevice(ctx, req.user.id, req.params.id);
      const result = await commands.send(req.user.id, req.params.id, command, undefined, timeoutMs);
      // The device is there but could not do it (no screenshot hook, sheet unavailable...).
      if (!result.ok) throw upstreamFailed(result.error || 'The device could not run the command');
      if (command === 'open_sheet') ctx.tourProgress.record(req.user.id, 'debugWindowOpened');
      return { success: true as const, ...(result.data === undefined ? {} : { data: result.data }) };
    });
  }
}
