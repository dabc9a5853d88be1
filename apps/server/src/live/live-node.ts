import type { FastifyBaseLogger } from 'fastify';
import { topics, type LiveBus } from './bus';
import { createLiveBus } from './bus-factory';
import { DeviceCommands } from './device-commands';
import type { LiveEvents } from './live-events';
import { ScreenCaptureRelay } from './screen-capture-relay';
import { ViewerHub } from './viewer-hub';
import { ViewerPublisher } from './viewer-messages';

/**
 * The live side of one server node: the bus to the other nodes, the viewers connected here,
 * what is told to viewers, and commands to devices. The device side reports to it through
 * `events` and lends it each device socket through `commands.attach` (see DeviceCommands).
 */
export interface LiveNode {
  bus: LiveBus;
  hub: ViewerHub;
  viewers: ViewerPublisher;
  commands: DeviceCommands;
  events: LiveEvents;
  close(): Promise<void>;
}

export interface LiveNodeOptions {
  redisUrl: string | null;
  log: FastifyBaseLogger;
}

export async function createLiveNode(options: LiveNodeOptions): Promise<LiveNode> {
  const bus = await createLiveBus(options.redisUrl, options.log);
  const hub = new ViewerHub({
    bus, log: options.log,
    signalling: {
      fromViewer: (userId, viewerId, message) => screenCapture.fromViewer(userId, viewerId, message),
      viewerLeft: (userId, viewerId, deviceIds) => screenCapture.viewerLeft(userId, viewerId, deviceIds),
    },
  });
  const viewers = new ViewerPublisher(bus);
  const commands = new DeviceCommands(bus, options.log);
  const screenCapture = new ScreenCaptureRelay(bus, commands);
  const events: LiveEvents = {
    deviceConnected(userId, device) {
      // Announced once commands can reach the device from any node, so that a dashboard
      // reacting to the status can send one at once.
      void commands.whenReachable(userId, device.id).then(() => viewers.deviceStatus(userId, device));
    },
    deviceRemoved(userId, deviceId) {
      viewers.deviceDeleted(userId, deviceId);
    },
    deviceUpdated(userId, device) {
      viewers.deviceUpdate(userId, device);
    },
    deviceDisconnected(userId, device) {
      // A reconnect that replaced this connection keeps the device online, on this node or on
      // another one (through a load balancer the new connection may land anywhere).
      if (!commands.isConnectedHere(userId, device.id) && !bus.mayHaveSubscribers(topics.device(userId, device.id))) {
        viewers.deviceStatus(userId, device);
        screenCapture.deviceGone(userId, device.id);
      }
    },
    itemsUpserted(userId, deviceId, items) {
      viewers.newRequests(userId, deviceId, items);
    },
    deviceLimitReached(userId, deviceId) {
      viewers.deviceLimitReached(userId, deviceId);
    },
    quotaChanged(userId, exceeded) {
      viewers.quotaChanged(userId, exceeded);
    },
    userDefaultsChanged(userId, deviceId, groups) {
      viewers.userDefaultsChanged(userId, deviceId, groups);
    },
    routeConsoleChanged(userId, deviceId, routeId, consoleLog) {
      viewers.routeConsole(userId, deviceId, routeId, consoleLog);
    },
    wantsItems(userId, deviceId) {
      return viewers.watched(userId, deviceId);
    },
    screenCaptureSignal(userId, deviceId, frame) {
      screenCapture.fromDevice(userId, deviceId, frame);
    },
  };
  return {
    bus,
    hub,
    viewers,
    commands,
    events,
    async close() {
      hub.close();
      commands.close();
      await bus.close();
    },
  };
}
