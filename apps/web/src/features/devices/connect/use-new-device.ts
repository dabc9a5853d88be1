import { useEffect, useRef, useState } from 'react';
import { useLiveMessage } from '../../../lib/live';
import { useDevices } from '../devices.api';

export interface ConnectedDevice {
  id: string;
  name: string;
}

/**
 * The first device that comes online while the connect screen is open: one the account did not
 * have, or one that was offline. Devices already online when the screen opened do not count.
 */
export function useNewDeviceConnection(): ConnectedDevice | null {
  const devices = useDevices();
  const online = useRef<Set<string> | null>(null);
  const [connected, setConnected] = useState<ConnectedDevice | null>(null);

  useEffect(() => {
    if (online.current === null && devices.data) online.current = new Set(devices.data.filter((d) => d.online).map((d) => d.id));
  }, [devices.data]);

  useLiveMessage('device_status', (message) => {
    online.current ??= new Set();
    if (!message.online) {
      online.current.delete(message.deviceId);
      return;
    }
    if (online.current.has(message.deviceId)) return;
    online.current.add(message.deviceId);
    setConnected((current) => current ?? { id: message.deviceId, name: message.name });
  });

  return connected;
}
