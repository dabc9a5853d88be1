import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

export type BusHandler = (message: string) => void;

export interface BusSubscription {
  /** Settles once messages published anywhere reach the handler (at once in-process). */
  readonly ready: Promise<void>;
  unsubscribe(): void;
}

/**
 * Carries live traffic between the parts of the server, and between server nodes when they
 * share a Redis. Messages are strings serialized by the publisher, so one payload serves every
 * receiver; topics are named by `topics` below.
 */
export interface LiveBus {
  /** Identifies this server process among the nodes sharing the bus. */
  readonly nodeId: string;
  /** Fire and forget: delivered to every subscriber on every node, this one included. */
  publish(topic: string, message: string): void;
  /** Like publish, answering how many nodes had a subscriber (0: nobody listens anywhere). */
  publishCounted(topic: string, message: string): Promise<number>;
  subscribe(topic: string, handler: BusHandler): BusSubscription;
  /** False only when no node can be listening, so that publishers may skip serializing. */
  mayHaveSubscribers(topic: string): boolean;
  close(): Promise<void>;
}

export const topics = {
  /** What every viewer of one account sees (device statuses, updates, deletions). */
  account: (userId: string) => `acct:${userId}`,
  /** What the viewers of one account watching one device see (its items). */
  deviceViewers: (userId: string, deviceId: string) => `view:${userId}:${deviceId}`,
  /** Commands for one device, heard by the node that holds its connection. */
  device: (userId: string, deviceId: string) => `dev:${userId}:${deviceId}`,
  /** Said when an account's tokens were revoked or the account deleted: its viewers re-check their token. */
  credentials: (userId: string) => `cred:${userId}`,
  /** What is addressed to one viewer connection of an account (screen capture signalling). */
  viewer: (userId: string, connectionId: string) => `viewer:${userId}:${connectionId}`,
  /** Answers addressed to one node (command deliveries). */
  node: (nodeId: string) => `node:${nodeId}`,
};

export const newNodeId = (): string => crypto.randomUUID();

/**
 * Local fan-out shared by both implementations: handlers per topic, each call isolated so that
 * one failing subscriber cannot stop delivery to the others.
 */
export class LocalTopics {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Answers true when this is the topic's first handler. */
  add(topic: string, handler: BusHandler): boolean {
    let set = this.handlers.get(topic);
    const first = !set;
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return first;
  }

  /** Answers true when the topic has no handler left. */
  remove(topic: string, handler: BusHandler): boolean {
    const set = this.handlers.get(topic);
    if (!set?.delete(handler)) return false;
    if (set.size > 0) return false;
    this.handlers.delete(topic);
    return true;
  }

  has(topic: string): boolean {
    return this.handlers.has(topic);
  }

  /** Every topic with a handler. */
  topics(): string[] {
    return [...this.handlers.keys()];
  }

  /** Answers whether any handler received the message. */
  deliver(topic: string, message: string): boolean {
    const set = this.handlers.get(topic);
    if (!set) return false;
    for (const handler of set) {
      try {
        handler(message);
      } catch (err) {
        this.log.error({ err, topic }, 'live bus subscriber failed');
      }
    }
    return true;
  }
}

/** The embedded default: one process, synchronous delivery, no serialization beyond the publisher's. */
export class InProcessBus implements LiveBus {
  readonly nodeId = newNodeId();
  private readonly local: LocalTopics;

  constructor(log: FastifyBaseLogger) {
    this.local = new LocalTopics(log);
  }

  publish(topic: string, message: string): void {
    this.local.deliver(topic, message);
  }

  async publishCounted(topic: string, message: string): Promise<number> {
    return this.local.deliver(topic, message) ? 1 : 0;
  }

  subscribe(topic: string, handler: BusHandler): BusSubscription {
    this.local.add(topic, handler);
    let active = true;
    return {
      ready: Promise.resolve(),
      unsubscribe: () => {
        if (!active) return;
        active = false;
        this.local.remove(topic, handler);
      },
    };
  }

  mayHaveSubscribers(topic: string): boolean {
    return this.local.has(topic);
  }

  async close(): Promise<void> {}
}
