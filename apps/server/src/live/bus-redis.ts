import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { LocalTopics, newNodeId, type BusHandler, type BusSubscription, type LiveBus } from './bus';

const CHANNEL_PREFIX = 'spyglass:';
/** Where nodes tell each other which topics they listen to (see `mayHaveSubscribers`). */
const INTEREST_CHANNEL = 'spyglass-interest';
/** Each node repeats its whole list this often; a node not heard for three periods is forgotten. */
const INTEREST_REFRESH_MS = 30_000;
/** How long a new subscription waits for the other nodes to confirm they heard of it. */
const INTEREST_ACK_TIMEOUT_MS = 2_000;

type InterestMessage =
  | { n: string; t: 'add' | 'del'; topic: string; id?: string }
  | { n: string; t: 'all'; topics: string[] }
  | { n: string; t: 'sync' }
  | { n: string; t: 'ack'; id: string; to: string };

/**
 * The live bus across server nodes: Redis pub/sub, one connection to publish and one to
 * subscribe. A node delivers its own messages locally at once and skips their echo from Redis,
 * so local viewers never wait for a Redis round trip. Each payload crosses Redis once per topic,
 * whatever the number of viewers behind it.
 *
 * Nodes also tell each other which topics they listen to, so that a publisher knows when nobody
 * anywhere listens and skips building the message at all (ingest asks before it serializes a
 * batch for viewers). A subscription is `ready` only once every other node confirmed it heard of
 * it: a node that decided "nobody listens" before that decided it about an item committed before
 * that, which the new viewer then loads from the API.
 */
export class RedisBus implements LiveBus {
  readonly nodeId = newNodeId();
  private readonly local: LocalTopics;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly subscribing = new Map<string, Promise<void>>();
  private readonly originPrefix: string;
  private lastPublishWarning = 0;
  /** Topics other nodes listen to: topic → node ids. */
  private readonly remote = new Map<string, Set<string>>();
  /** Topics with an UNSUBSCRIBE in flight on the subscriber connection, and how many. */
  private readonly unsubscribing = new Map<string, number>();
  /** When each other node last sent its whole list. */
  private readonly heardFrom = new Map<string, number>();
  private readonly waitingAcks = new Map<string, { missing: number; done: () => void }>();
  private refreshTimer: NodeJS.Timeout | null = null;
  /** Until the first sync is done, every topic may have listeners elsewhere. */
  private synced = false;

  constructor(url: string, private readonly log: FastifyBaseLogger) {
    this.local = new LocalTopics(log);
    this.originPrefix = `${this.nodeId}\n`;
    const options = { lazyConnect: false, maxRetriesPerRequest: 3 };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    for (const [role, client] of [['publisher', this.pub], ['subscriber', this.sub]] as const) {
      // The URL may carry a password: log the error message only.
      client.on('error', (err: Error) => this.log.warn({ role, message: err.message }, 'live bus: Redis error'));
    }
    this.sub.on('message', (channel: string, payload: string) => this.onMessage(channel, payload));
  }

  /** Resolves when both connections are up (start-up fails fast on a wrong REDIS_URL). */
  async connect(): Promise<void> {
    const up = (client: Redis) =>
      client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve, reject) => {
        client.once('ready', () => resolve());
        client.once('end', () => reject(new Error('Redis connection closed before it was ready')));
      });
    await Promise.all([up(this.pub), up(this.sub)]);
    await this.sub.subscribe(INTEREST_CHANNEL);
    // Every other node answers with its list; each answer is applied as it arrives.
    const nodes = await this.pub.publish(INTEREST_CHANNEL, JSON.stringify({ n: this.nodeId, t: 'sync' }));
    await this.awaitAcks(`sync:${this.nodeId}`, nodes - 1);
    this.synced = true;
    this.refreshTimer = setInterval(() => this.refreshInterest(), INTEREST_REFRESH_MS);
    this.refreshTimer.unref();
  }

  publish(topic: string, message: string): void {
    this.local.deliver(topic, message);
    this.pub.publish(CHANNEL_PREFIX + topic, this.originPrefix + message).catch((err: Error) => {
      // While Redis is away every live message fails: say so once in a while, not thousands of times.
      const now = Date.now();
      if (now - this.lastPublishWarning < 10_000) return;
      this.lastPublishWarning = now;
      this.log.warn({ message: err.message }, 'live bus: publishing to Redis fails; other nodes miss live updates');
    });
  }

  async publishCounted(topic: string, message: string): Promise<number> {
    // Redis still counts our subscriber connection until an UNSUBSCRIBE sent on it is done.
    const subscribedHere = this.local.has(topic) || this.unsubscribing.has(topic);
    const local = this.local.deliver(topic, message) ? 1 : 0;
    const receivers = await this.pub.publish(CHANNEL_PREFIX + topic, this.originPrefix + message);
    // Our own subscriber connection is among the receivers when this node listens too.
    return local + Math.max(0, receivers - (subscribedHere ? 1 : 0));
  }

  subscribe(topic: string, handler: BusHandler): BusSubscription {
    let ready: Promise<void>;
    if (this.local.add(topic, handler)) {
      ready = Promise.all([this.sub.subscribe(CHANNEL_PREFIX + topic), this.announce(topic)]).then(() => undefined);
      this.subscribing.set(topic, ready);
      ready.catch((err: Error) => this.log.warn({ topic, message: err.message }, 'live bus: subscribe failed'));
    } else {
      ready = this.subscribing.get(topic) ?? Promise.resolve();
    }
    let active = true;
    return {
      ready,
      unsubscribe: () => {
        if (!active) return;
        active = false;
        if (this.local.remove(topic, handler)) {
          this.subscribing.delete(topic);
          this.sendInterest({ n: this.nodeId, t: 'del', topic });
          this.unsubscribing.set(topic, (this.unsubscribing.get(topic) ?? 0) + 1);
          this.sub.unsubscribe(CHANNEL_PREFIX + topic).catch(() => {
            // The connection is closing or gone; its subscriptions went with it.
          }).finally(() => {
            const pending = (this.unsubscribing.get(topic) ?? 1) - 1;
            if (pending === 0) this.unsubscribing.delete(topic);
            else this.unsubscribing.set(topic, pending);
          });
        }
      },
    };
  }

  mayHaveSubscribers(topic: string): boolean {
    return !this.synced || this.local.has(topic) || this.remote.has(topic);
  }

  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const { done } of this.waitingAcks.values()) done();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  /** Tells the other nodes that this one listens to `topic`; resolves once they all confirmed. */
  private async announce(topic: string): Promise<void> {
    const id = crypto.randomUUID();
    const nodes = await this.pub.publish(INTEREST_CHANNEL, JSON.stringify({ n: this.nodeId, t: 'add', topic, id }));
    await this.awaitAcks(id, nodes - 1);
  }

  /** Waits for `count` acks of `id`; a node that does not answer in time is not waited for. */
  private awaitAcks(id: string, count: number): Promise<void> {
    if (count <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waitingAcks.delete(id);
        this.log.warn('live bus: a node did not confirm a subscription in time');
        resolve();
      }, INTEREST_ACK_TIMEOUT_MS);
      this.waitingAcks.set(id, {
        missing: count,
        done: () => {
          clearTimeout(timer);
          this.waitingAcks.delete(id);
          resolve();
        },
      });
    });
  }

  private sendInterest(message: InterestMessage): void {
    this.pub.publish(INTEREST_CHANNEL, JSON.stringify(message)).catch(() => {
      // Redis is away: the next refresh repeats the whole list.
    });
  }

  private refreshInterest(): void {
    this.sendInterest({ n: this.nodeId, t: 'all', topics: this.local.topics() });
    const now = Date.now();
    for (const [node, at] of this.heardFrom) {
      if (now - at > 3 * INTEREST_REFRESH_MS) this.forget(node);
    }
  }

  private forget(node: string): void {
    this.heardFrom.delete(node);
    for (const [topic, nodes] of this.remote) if (nodes.delete(node) && nodes.size === 0) this.remote.delete(topic);
  }

  private listens(node: string, topic: string): void {
    let nodes = this.remote.get(topic);
    if (!nodes) this.remote.set(topic, (nodes = new Set()));
    nodes.add(node);
  }

  private onInterest(payload: string): void {
    const message = JSON.parse(payload) as InterestMessage;
    if (message.n === this.nodeId) return;
    switch (message.t) {
      case 'add':
        this.listens(message.n, message.topic);
        if (message.id) this.sendInterest({ n: this.nodeId, t: 'ack', id: message.id, to: message.n });
        break;
      case 'del': {
        const nodes = this.remote.get(message.topic);
        if (nodes?.delete(message.n) && nodes.size === 0) this.remote.delete(message.topic);
        break;
      }
      case 'all':
        this.forget(message.n);
        this.heardFrom.set(message.n, Date.now());
        for (const topic of message.topics) this.listens(message.n, topic);
        // An answer to a new node's sync counts as its ack.
        this.acked(`sync:${this.nodeId}`);
        break;
      case 'sync':
        this.sendInterest({ n: this.nodeId, t: 'all', topics: this.local.topics() });
        break;
      case 'ack':
        if (message.to === this.nodeId) this.acked(message.id);
        break;
    }
  }

  private acked(id: string): void {
    const waiting = this.waitingAcks.get(id);
    if (waiting && --waiting.missing <= 0) waiting.done();
  }

  private onMessage(channel: string, payload: string): void {
    if (channel === INTEREST_CHANNEL) {
      try {
        this.onInterest(payload);
      } catch (err) {
        this.log.warn({ message: (err as Error).message }, 'live bus: unreadable interest message');
      }
      return;
    }
    if (payload.startsWith(this.originPrefix)) return;
    const newline = payload.indexOf('\n');
    if (newline < 0 || !channel.startsWith(CHANNEL_PREFIX)) return;
    this.local.deliver(channel.slice(CHANNEL_PREFIX.length), payload.slice(newline + 1));
  }
}
