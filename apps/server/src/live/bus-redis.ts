import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { LocalTopics, newNodeId, type BusHandler, type BusSubscription, type LiveBus } from './bus';

const CHANNEL_PREFIX = 'spyglass:';

/**
 * The live bus across server nodes: Redis pub/sub, one connection to publish and one to
 * subscribe. A node delivers its own messages locally at once and skips their echo from Redis,
 * so local viewers never wait for a Redis round trip. Each payload crosses Redis once per topic,
 * whatever the number of viewers behind it.
 */
export class RedisBus implements LiveBus {
  readonly nodeId = newNodeId();
  private readonly local: LocalTopics;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly subscribing = new Map<string, Promise<void>>();
  private readonly originPrefix: string;
  private lastPublishWarning = 0;

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
    const subscribedHere = this.local.has(topic);
    const local = this.local.deliver(topic, message) ? 1 : 0;
    const receivers = await this.pub.publish(CHANNEL_PREFIX + topic, this.originPrefix + message);
    // Our own subscriber connection is among the receivers when this node listens too.
    return local + Math.max(0, receivers - (subscribedHere ? 1 : 0));
  }

  subscribe(topic: string, handler: BusHandler): BusSubscription {
    let ready: Promise<void>;
    if (this.local.add(topic, handler)) {
      ready = this.sub.subscribe(CHANNEL_PREFIX + topic).then(() => undefined);
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
          this.sub.unsubscribe(CHANNEL_PREFIX + topic).catch(() => {
            // The connection is closing or gone; its subscriptions went with it.
          });
        }
      },
    };
  }

  mayHaveSubscribers(): boolean {
    return true;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private onMessage(channel: string, payload: string): void {
    if (payload.startsWith(this.originPrefix)) return;
    const newline = payload.indexOf('\n');
    if (newline < 0 || !channel.startsWith(CHANNEL_PREFIX)) return;
    this.local.deliver(channel.slice(CHANNEL_PREFIX.length), payload.slice(newline + 1));
  }
}
