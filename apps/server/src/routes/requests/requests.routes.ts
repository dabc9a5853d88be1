import { z } from 'zod';
import {
  CapturedItem, DeletedCountResponse, DeleteRequestsBody, LookupRequestsBody, LookupRequestsResponse, RequestsPage, RequestsQuery, SuccessBody,
} from '@spyglass/protocol';
import type { App } from '../../context';
import { notFound } from '../../errors';
import { countItems, deleteItems, findDeviceItems, findItem, findItemsPage } from '../../repositories/items.repository';
import { REQUEST_NOT_FOUND, requireDevice, serializeTrusted } from '../route-helpers';

const ItemIdParams = z.object({ id: z.string().min(1).max(100) });

export async function requestsRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const { viewers } = ctx.live;

  app.get('/requests', { ...serializeTrusted, schema: { querystring: RequestsQuery, response: { 200: RequestsPage } } }, async (req) => {
    const { deviceId, startDate, endDate, before, limit } = req.query;
    // A foreign or unknown device is a 404, not an empty list: the dashboard shows Device not found.
    await requireDevice(ctx, req.user.id, deviceId);
    const dates = {
      startDate: startDate === undefined ? undefined : Date.parse(startDate),
      endDate: endDate === undefined ? undefined : Date.parse(endDate),
    };
    const page = await findItemsPage(ctx.db, req.user.id, { deviceId, ...dates, before, limit });
    if (before !== undefined) return { items: page.items, nextBefore: page.nextBefore };
    // Counted up to the page's newest item, so that the count and the page agree whatever
    // arrives meanwhile: newer items reach the viewer live, and it counts them itself.
    const total = await countItems(ctx.db, req.user.id, { deviceId, ...dates, throughNum: page.items[0]?.num ?? 0 });
    return { items: page.items, nextBefore: page.nextBefore, total };
  });

  app.get('/requests/:id', { ...serializeTrusted, schema: { params: ItemIdParams, response: { 200: CapturedItem } } }, async (req) => {
    const item = await findItem(ctx.db, ctx.blobs, req.user.id, req.params.id);
    if (!item) throw notFound(REQUEST_NOT_FOUND);
    return item;
  });

  app.post('/requests/lookup', { ...serializeTrusted, schema: { body: LookupRequestsBody, response: { 200: LookupRequestsResponse } } }, async (req) => {
    const { deviceId, ids } = req.body;
    await requireDevice(ctx, req.user.id, deviceId);
    return { items: await findDeviceItems(ctx.db, ctx.blobs, req.user.id, deviceId, ids) };
  });

  app.delete('/requests/:id', { schema: { params: ItemIdParams, response: { 200: SuccessBody } } }, async (req) => {
    const deleted = await deleteItems(ctx.db, ctx.blobs, req.user.id, [req.params.id]);
    if (deleted.length === 0) throw notFound(REQUEST_NOT_FOUND);
    announceDeleted(req.user.id, deleted);
    return { success: true as const };
  });

  app.delete('/requests', { schema: { body: DeleteRequestsBody, response: { 200: DeletedCountResponse } } }, async (req) => {
    const deleted = await deleteItems(ctx.db, ctx.blobs, req.user.id, [...new Set(req.body.ids)]);
    announceDeleted(req.user.id, deleted);
    return { success: true as const, deleted: deleted.length };
  });

  function announceDeleted(userId: string, deleted: Array<{ deviceId: string; id: string }>): void {
    const byDevice = new Map<string, string[]>();
    for (const { deviceId, id } of deleted) {
      const ids = byDevice.get(deviceId);
      if (ids) ids.push(id);
      else byDevice.set(deviceId, [id]);
    }
    for (const [deviceId, ids] of byDevice) viewers.requestsDeleted(userId, deviceId, ids);
  }
}
