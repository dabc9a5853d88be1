import { DeletedCountResponse } from '@spyglass/protocol';
import { api } from '../../lib/api';

/** DELETE /devices/{id}/requests: the emulated device's captured items (its second panel's Clear Logs). */
export const clearEmulatorItems = (deviceId: string) =>
  api.delete(`/devices/${encodeURIComponent(deviceId)}/requests`, DeletedCountResponse, { errorMessage: 'Failed to clear the device’s logs' });
