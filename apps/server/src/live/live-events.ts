import type { CompactItem, UserDefaultsGroup, ConsoleEntry, Device, DeviceScreenCaptureFrame } from '@spyglass/protocol';

/**
 * What the device side of the server reports to the live side. The device connections and the
 * ingest call it after the fact is stored; the live bus implements it and fans the events out to
 * viewers (on this node or, through Redis, on others). Calls must not throw or block: ingest
 * calls them on its commit path.
 */
export interface LiveEvents {
  /** A device finished its hello (new or known); `created` when it was registered just now. */
  deviceConnected(userId: string, device: Device, created: boolean): void;
  /** A device was removed without a call from a dashboard (the sample, when a real device arrived). */
  deviceRemoved?(userId: string, deviceId: string): void;
  /** What a connected device reports about itself changed (device_info frame). */
  deviceUpdated(userId: string, device: Device): void;
  /** The device's connection closed or it fell silent; `device.online` is false. */
  deviceDisconnected(userId: string, device: Device): void;
  /** Items of one device were committed (inserted or completed), in the compact list form. */
  itemsUpserted(userId: string, deviceId: string, items: CompactItem[]): void;
  /** A new device was refused at the account's device limit. */
  deviceLimitReached(userId: string, deviceId: string): void;
  /** The account's traffic quota was reached, or lifted (upgrade, new period). */
  quotaChanged(userId: string, exceeded: boolean): void;
  /** The app on a device changed its user defaults itself: `groups` is all of them. */
  userDefaultsChanged(userId: string, deviceId: string, groups: UserDefaultsGroup[]): void;
  /** A mocked route's console log changed: `consoleLog` is the whole of it. */
  routeConsoleChanged(userId: string, deviceId: string, routeId: string, consoleLog: ConsoleEntry[]): void;
  /**
   * Whether any viewer, on any node, may be watching this device's items. Ingest asks after each
   * commit and, when nobody is, neither builds the compact items nor calls `itemsUpserted`.
   */
  wantsItems(userId: string, deviceId: string): boolean;
  /** Screen capture signalling from a device, for one of its account's viewers. */
  screenCaptureSignal(userId: string, deviceId: string, frame: DeviceScreenCaptureFrame): void;
}
