import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ViewerOutbound, type CompactItem } from '@spyglass/protocol';
import { InProcessBus, topics } from '../src/live/bus';
import { itemMessagesOf, ViewerPublisher } from '../src/live/viewer-messages';

const log = Fastify({ logger: false }).log;

describe('in-process live bus', () => {
  it('delivers to every subscriber of a topic, counts listeners, and forgets unsubscribed handlers', async () => {
    const bus = new InProcessBus(log);
    const got: string[] = [];
    expect(bus.mayHaveSubscribers('t')).toBe(false);
    expect(await bus.publishCounted('t', 'lost')).toBe(0);

    const first = bus.subscribe('t', (m) => got.push(`1:${m}`));
    const second = bus.subscribe('t', (m) => got.push(`2:${m}`));
    bus.subscribe('other', (m) => got.push(`other:${m}`));
    await first.ready;
    expect(bus.mayHaveSubscribers('t')).toBe(true);
    bus.publish('t', 'a');
    expect(await bus.publishCounted('t', 'b')).toBe(1);
    expect(got).toEqual(['1:a', '2:a', '1:b', '2:b']);

    first.unsubscribe();
    first.unsubscribe();
    bus.publish('t', 'c');
    second.unsubscribe();
    bus.publish('t', 'd');
    expect(got).toEqual(['1:a', '2:a', '1:b', '2:b', '2:c']);
    expect(bus.mayHaveSubscribers('t')).toBe(false);
  });

  it('keeps delivering when one subscriber throws', () => {
    const bus = new InProcessBus(log);
    const got: string[] = [];
    bus.subscribe('t', () => {
      throw new Error('broken viewer');
    });
    bus.subscribe('t', (m) => got.push(m));
    bus.publish('t', 'still here');
    expect(got).toEqual(['still here']);
  });
});

describe('viewer publisher', () => {
  const item = (id: string) => ({
    id, deviceId: 'dev-1', num: 1, type: 'log', level: 'info', method: null, url: null, status: null, duration: null, size: 10,
    sentAt: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', tags: [], notes: null,
    isMocked: false, mock: null, mockData: null, metaData: null, details: { message: 'line\nbreak "quoted"' },
  }) as CompactItem;

  it('publishes a committed batch as one new_requests message, and nothing when nobody watches', () => {
    const bus = new InProcessBus(log);
    const payloads: string[] = [];
    const publisher = new ViewerPublisher(bus);
    expect(publisher.watched('user-1', 'dev-1')).toBe(false);
    publisher.newRequests('user-1', 'dev-1', [item('a')]);
    bus.subscribe(topics.deviceViewers('user-1', 'dev-1'), (p) => payloads.push(p));
    expect(publisher.watched('user-1', 'dev-1')).toBe(true);
    expect(publisher.watched('user-1', 'dev-2')).toBe(false);
    publisher.newRequests('user-1', 'dev-1', []);
    publisher.newRequests('user-1', 'dev-1', [item('b'), item('c')]);
    expect(payloads).toHaveLength(1);
    const message = ViewerOutbound.parse(JSON.parse(payloads[0]!));
    expect(message.type === 'new_requests' && [message.deviceId, message.requests.map((r) => r.id)]).toEqual(['dev-1', ['b', 'c']]);
    expect(message).toMatchObject({ requests: [{ details: { message: 'line\nbreak "quoted"' } }, {}] });
  });

  it('turns a batch into one new_request per item for viewers that did not ask for batches', () => {
    const bus = new InProcessBus(log);
    const payloads: string[] = [];
    bus.subscribe(topics.deviceViewers('user-1', 'dev-1'), (p) => payloads.push(p));
    const publisher = new ViewerPublisher(bus);
    publisher.newRequests('user-1', 'dev-1', [item('b'), item('c')]);
    publisher.requestsCleared('user-1', 'dev-1');
    const messages = itemMessagesOf(payloads[0]!)!.map((json) => ViewerOutbound.parse(JSON.parse(json)));
    expect(messages.map((m) => m.type === 'new_request' && [m.deviceId, m.request.id])).toEqual([['dev-1', 'b'], ['dev-1', 'c']]);
    expect(messages[0]).toMatchObject({ request: { details: { message: 'line\nbreak "quoted"' } } });
    expect(itemMessagesOf(payloads[1]!)).toBeNull();
  });

  it('sends device news to the account and item news to the device’s watchers', () => {
    const bus = new InProcessBus(log);
    const account: string[] = [];
    const watchers: string[] = [];
    bus.subscribe(topics.account('user-1'), (p) => account.push(p));
    bus.subscribe(topics.deviceViewers('user-1', 'dev-1'), (p) => watchers.push(p));
    const publisher = new ViewerPublisher(bus);
    publisher.deviceDeleted('user-1', 'dev-1');
    publisher.requestsCleared('user-1', 'dev-1');
    publisher.requestsDeleted('user-1', 'dev-1', []);
    publisher.requestsDeleted('user-1', 'dev-1', ['x']);
    publisher.requestsCleared('user-2', 'dev-1');
    expect(account.map((p) => JSON.parse(p))).toEqual([{ type: 'device_deleted', deviceId: 'dev-1' }]);
    expect(watchers.map((p) => JSON.parse(p))).toEqual([
      { type: 'requests_cleared', deviceId: 'dev-1' },
      { type: 'requests_deleted', deviceId: 'dev-1', ids: ['x'] },
    ]);
  });
});
