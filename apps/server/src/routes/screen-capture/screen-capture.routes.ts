import { ScreenCaptureCredentials, ScreenCaptureQuery, SuccessBody } from '@spyglass/protocol';
import type { App } from '../../context';
import { iceServersFor, startScreenCapture, stopScreenCapture } from '../../services/screen-capture.service';
import { DeviceIdParams, requireDevice } from '../route-helpers';

/**
 * Remote screen capture (spec 001 §7): the relay credentials, and start / stop as commands to the
 * device. `viewerId` is the `connectionId` of the caller's live connection: the device's offer
 * and candidates go to that connection, and only a viewer of the device's account can receive them.
 */
export async function screenCaptureRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const { commands } = ctx.live;

  app.get('/screen-capture/turn', { schema: { response: { 200: ScreenCaptureCredentials } } }, async (req) => ({
    iceServers: iceServersFor(ctx.config.screenCapture, req.user.id, ctx.now()),
  }));

  app.get('/devices/:id/start-capture-screen', { schema: { params: DeviceIdParams, querystring: ScreenCaptureQuery, response: { 200: SuccessBody } } }, async (req) => {
    const device = await requireDevice(ctx, req.user.id, req.params.id);
    await startScreenCapture(commands, ctx.config.screenCapture, req.user.id, device, req.query.viewerId, ctx.now());
    return { success: true as const };
  });

  app.get('/devices/:id/stop-capture-screen', { schema: { params: DeviceIdParams, querystring: ScreenCaptureQuery, response: { 200: SuccessBody } } }, async (req) => {
    await requireDevice(ctx, req.user.id, req.params.id);
    await stopScreenCapture(commands, req.user.id, req.params.id, req.query.viewerId);
    return { success: true as const };
  });
}
