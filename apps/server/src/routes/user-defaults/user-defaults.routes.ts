import { z } from 'zod';
import { DeleteUserDefaultBody, RenameUserDefaultBody, SetUserDefaultBody, UserDefaultsResponse } from '@spyglass/protocol';
import type { App } from '../../context';
import { UserDefaultsService } from '../../services/user-defaults.service';

const DeviceIdParams = z.object({ deviceId: z.string().min(1).max(200) });
const reply = { response: { 200: UserDefaultsResponse } };

/** The four user-defaults calls of spec 002 §7, each relayed to the device (UserDefaultsService). */
export async function userDefaultsRoutes(app: App): Promise<void> {
  const service = new UserDefaultsService(app.ctx);

  app.get('/user-defaults/:deviceId', { schema: { params: DeviceIdParams, ...reply } }, async (req) =>
    service.run(req.user.id, req.params.deviceId, { op: 'list' }));

  app.post('/user-defaults', { schema: { body: SetUserDefaultBody, ...reply } }, async (req) => {
    const { deviceId, name, key, value } = req.body;
    return service.run(req.user.id, deviceId, { op: 'set', name, key, value });
  });

  // A changed key: the device deletes the old entry, then writes the new one (spec 002 §4).
  app.put('/user-defaults', { schema: { body: RenameUserDefaultBody, ...reply } }, async (req) => {
    const { deviceId, name, oldKey, newKey, value } = req.body;
    return service.run(req.user.id, deviceId, { op: 'rename', name, oldKey, newKey, value });
  });

  app.delete('/user-defaults', { schema: { body: DeleteUserDefaultBody, ...reply } }, async (req) => {
    const { deviceId, name, key } = req.body;
    return service.run(req.user.id, deviceId, { op: 'remove', name, key });
  });
}
