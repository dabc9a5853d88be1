import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  COMMAND_NAMES, ServerAnswerFrame, ServerCandidateFrame, type CommandFrame, type CommandName, type ServerFrame,
  type ServerScreenCaptureFrame,
} from '@spyglass/protocol';
import { conflict, gatewayTimeout, type DomainError } from '../errors';
import { topics, type BusSubscription, type LiveBus } from './bus';
import { parseJson } from '../lib/json';

export const DEVICE_OFFLINE_MESSAGE = 'Device is offline';

/** How long a device has to answer a command before it counts as offline. */
export const COMMAND_TIMEOUT_MS = 5000;

export const DEVICE_TIMEOUT_MESSAGE = 'The device did not answer in time';

/** How a command is sent (see `DeviceCommands.send`). */
export interface CommandOptions {
  /** How long the device has to answer. */
  timeoutMs?: number;
  /** No answer in time is 504 'The device did not answer in time' instead of 409 offline. */
  timeoutIsGatewayTimeout?: boolean;
  /**
   * The oldest device protocol version that knows the command: a connection that said hello
   * with an older one is answered `ok:false` with `unsupportedMessage`, and never sees it.
   */
  minProtocolVersion?: number;
  unsupportedMessage?: string;
}

/** A device's answer to a command (its `result` frame). */
export interface CommandResult {
  ok: boolean;
  data?: unknown;
  error?: string;
}

/** The device connection's side of the last hop: its socket on this node. */
export interface DeviceLink {
  /** Writes the frame to the device; false when the socket is no longer open. */
  send(frame: ServerFrame): boolean;
  close(code: number, reason: string): void;
  /** The protocol version the device said hello with. */
  protocolVersion?: number;
}

export interface LocalDeviceHandle {
  /** Settles once commands sent from any node reach this device. */
  readonly ready: Promise<void>;
  /** The connection closed: stop routing commands to it. */
  detach(): void;
}

const NodeRequest = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    id: z.string(),
    replyTo: z.string(),
    name: z.enum(COMMAND_NAMES),
    args: z.record(z.string(), z.unknown()).optional(),
    timeoutMs: z.number().int().positive(),
    minProtocolVersion: z.number().int().optional(),
    unsupportedMessage: z.string().optional(),
  }),
  z.object({ kind: z.literal('disconnect'), code: z.number().int(), reason: z.string() }),
  /** Screen capture signalling from a viewer, written to the device as it is (no result awaited). */
  z.object({ kind: z.literal('signal'), frame: z.discriminatedUnion('type', [ServerAnswerFrame, ServerCandidateFrame]) }),
]);
type NodeRequest = z.infer<typeof NodeRequest>;

const NodeReply = z.object({
  id: z.string(),
  result: z.object({ ok: z.boolean(), data: z.unknown().optional(), error: z.string().optional() }).nullable(),
  /** With a null result: the device was reached but did not answer in time. */
  timedOut: z.boolean().optional(),
});

interface Pending {
  resolve(result: CommandResult): void;
  reject(err: Error): void;
  /** Nodes that heard the command (null until the publish reports it). */
  receivers: number | null;
  /** Nodes that answered that they could not deliver it. */
  refused: number;
  timer: NodeJS.Timeout;
  /** What no answer in time rejects with. */
  onTimeout: () => DomainError;
}

interface LocalDevice {
  subscription: BusSubscription;
  /** Open connections of the device on this node, newest last (a reconnect may overlap the old one). */
  links: DeviceLink[];
}

interface Relayed {
  /** The (account, device) the command was written to: only its own connection may answer it. */
  key: string;
  reply(result: CommandResult | null, timedOut?: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * Commands to devices wherever they are connected. The node holding a device's socket listens on
 * the device's bus topic while the device is connected there; a sender publishes the command on
 * it, the holder writes the frame and relays the device's `result` back to the sender. Nobody
 * listening, or no result in time, means the device is offline (409), whatever the database
 * last recorded.
 *
 * The device connection calls `attach` after its hello (before reporting the device connected),
 * `resultReceived` for each result frame, and the handle's `detach` when it closes (before
 * reporting the device disconnected).
 */
export class DeviceCommands {
  /** Commands sent from this node, by id. */
  private readonly pending = new Map<string, Pending>();
  /** Commands written to devices of this node whose result is awaited, by id. */
  private readonly relayed = new Map<string, Relayed>();
  private readonly devices = new Map<string, LocalDevice>();
  private readonly replies: BusSubscription;

  constructor(private readonly bus: LiveBus, private readonly log: FastifyBaseLogger) {
    this.replies = bus.subscribe(topics.node(bus.nodeId), (payload) => this.onReply(payload));
  }

  attach(userId: string, deviceId: string, link: DeviceLink): LocalDeviceHandle {
    const key = localKey(userId, deviceId);
    let local = this.devices.get(key);
    if (!local) {
      const subscription = this.bus.subscribe(topics.device(userId, deviceId), (payload) => this.onRequest(key, payload));
      local = { subscription, links: [] };
      this.devices.set(key, local);
    }
    local.links.push(link);
    const entry = local;
    let attached = true;
    return {
      ready: entry.subscription.ready.catch(() => undefined),
      detach: () => {
        if (!attached) return;
        attached = false;
        entry.links = entry.links.filter((l) => l !== link);
        if (entry.links.length > 0 || this.devices.get(key) !== entry) return;
        entry.subscription.unsubscribe();
        this.devices.delete(key);
      },
    };
  }

  /** Settles once a device connected here can be reached from every node (at once when it is not here). */
  whenReachable(userId: string, deviceId: string): Promise<void> {
    return this.devices.get(localKey(userId, deviceId))?.subscription.ready.catch(() => undefined) ?? Promise.resolve();
  }

  /** Whether the device has an open connection on this node. */
  isConnectedHere(userId: string, deviceId: string): boolean {
    return (this.devices.get(localKey(userId, deviceId))?.links.length ?? 0) > 0;
  }

  /** A device answered a command with its result frame. */
  resultReceived(userId: string, deviceId: string, commandId: string, result: CommandResult): void {
    const relayed = this.relayed.get(commandId);
    if (!relayed || relayed.key !== localKey(userId, deviceId)) return;
    this.relayed.delete(commandId);
    clearTimeout(relayed.timer);
    relayed.reply({ ok: result.ok, data: result.data, error: result.error });
  }

  /**
   * Resolves with the device's result; throws 409 'Device is offline' when no node can reach it,
   * and when it does not answer in time 409 too, or 504 with `timeoutIsGatewayTimeout`.
   */
  async send(
    userId: string, deviceId: string, name: CommandName, args?: Record<string, unknown>, timeoutMsOrOptions: number | CommandOptions = {},
  ): Promise<CommandResult> {
    const options = typeof timeoutMsOrOptions === 'number' ? { timeoutMs: timeoutMsOrOptions } : timeoutMsOrOptions;
    const { timeoutMs = COMMAND_TIMEOUT_MS, minProtocolVersion, unsupportedMessage } = options;
    const onTimeout = options.timeoutIsGatewayTimeout ? () => gatewayTimeout(DEVICE_TIMEOUT_MESSAGE) : () => conflict(DEVICE_OFFLINE_MESSAGE);
    await this.replies.ready.catch(() => undefined);
    const id = crypto.randomUUID();
    const request: NodeRequest = { kind: 'command', id, replyTo: this.bus.nodeId, name, args, timeoutMs, minProtocolVersion, unsupportedMessage };
    const answered = new Promise<CommandResult>((resolve, reject) => {
      // The holder's own timeout answers first; this one covers a node that died meanwhile.
      const timer = setTimeout(() => this.settle(id, null, true), timeoutMs + 1000);
      this.pending.set(id, { resolve, reject, receivers: null, refused: 0, timer, onTimeout });
    });
    let receivers = 0;
    try {
      receivers = await this.bus.publishCounted(topics.device(userId, deviceId), JSON.stringify(request));
    } catch (err) {
      this.log.warn({ message: (err as Error).message }, 'command publish failed');
    }
    const pending = this.pending.get(id);
    if (pending) {
      pending.receivers = receivers;
      if (pending.refused >= receivers) this.settle(id, null);
    }
    return answered;
  }

  /**
   * Writes a signalling frame to the device wherever it is connected; answers false when no node
   * holds a connection of it (offline, or not a device of this account).
   */
  async signal(userId: string, deviceId: string, frame: ServerScreenCaptureFrame): Promise<boolean> {
    const request: NodeRequest = { kind: 'signal', frame };
    try {
      return (await this.bus.publishCounted(topics.device(userId, deviceId), JSON.stringify(request))) > 0;
    } catch (err) {
      this.log.warn({ message: (err as Error).message }, 'signal publish failed');
      return false;
    }
  }

  /** Closes the device's connections wherever they are (nothing happens when it is offline). */
  disconnect(userId: string, deviceId: string, code: number, reason: string): void {
    const request: NodeRequest = { kind: 'disconnect', code, reason };
    this.bus.publish(topics.device(userId, deviceId), JSON.stringify(request));
  }

  close(): void {
    this.replies.unsubscribe();
    for (const local of this.devices.values()) local.subscription.unsubscribe();
    this.devices.clear();
    for (const [id, relayed] of this.relayed) {
      clearTimeout(relayed.timer);
      this.relayed.delete(id);
    }
    for (const id of [...this.pending.keys()]) this.settle(id, null);
  }

  private onRequest(key: string, payload: string): void {
    const parsed = NodeRequest.safeParse(parseJson(payload));
    const local = this.devices.get(key);
    if (!parsed.success || !local) return;
    const request = parsed.data;
    if (request.kind === 'disconnect') {
      for (const link of [...local.links]) link.close(request.code, request.reason);
      return;
    }
    if (request.kind === 'signal') {
      local.links[local.links.length - 1]?.send(request.frame);
      return;
    }
    const reply = (result: CommandResult | null, timedOut?: boolean) =>
      this.bus.publish(topics.node(request.replyTo), JSON.stringify({ id: request.id, result, ...(timedOut ? { timedOut } : {}) }));
    const link = local.links[local.links.length - 1];
    if (link && request.minProtocolVersion !== undefined && (link.protocolVersion ?? 1) < request.minProtocolVersion) {
      reply({ ok: false, error: request.unsupportedMessage ?? `This device's SDK is too old for ${request.name}` });
      return;
    }
    const frame: CommandFrame = { type: 'command', id: request.id, name: request.name, ...(request.args ? { args: request.args } : {}) };
    if (!link?.send(frame)) {
      reply(null);
      return;
    }
    const timer = setTimeout(() => {
      this.relayed.delete(request.id);
      reply(null, true);
    }, request.timeoutMs);
    timer.unref();
    this.relayed.set(request.id, { key, reply, timer });
  }

  private onReply(payload: string): void {
    const parsed = NodeReply.safeParse(parseJson(payload));
    if (!parsed.success) return;
    const pending = this.pending.get(parsed.data.id);
    if (!pending) return;
    if (parsed.data.result || parsed.data.timedOut) {
      this.settle(parsed.data.id, parsed.data.result, parsed.data.timedOut);
      return;
    }
    pending.refused += 1;
    if (pending.receivers !== null && pending.refused >= pending.receivers) this.settle(parsed.data.id, null);
  }

  /** A result resolves the command; null rejects it as offline, or as unanswered when it timed out. */
  private settle(id: string, result: CommandResult | null, timedOut = false): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (result) pending.resolve(result);
    else pending.reject(timedOut ? pending.onTimeout() : conflict(DEVICE_OFFLINE_MESSAGE));
  }
}

const localKey = (userId: string, deviceId: string) => `${userId}\n${deviceId}`;

