import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ViewerOutbound } from '@spyglass/protocol';
import { connectionLostText, LiveConnection, reconnectDelay, viewerUrl, type SocketLike } from './live';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly sent: unknown[] = [];
  closedWith: number | undefined | null = null;

  constructor(readonly token: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: ViewerOutbound | Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

describe('reconnectDelay', () => {
  it('is 5 s times 2^attempt, capped at 300 s, plus up to 1.5 s of jitter', () => {
    expect(reconnectDelay(0, () => 0)).toBe(5000);
    expect(reconnectDelay(1, () => 0)).toBe(10_000);
    expect(reconnectDelay(5, () => 0)).toBe(160_000);
    expect(reconnectDelay(6, () => 0)).toBe(300_000);
    expect(reconnectDelay(40, () => 0)).toBe(300_000);
    expect(reconnectDelay(0, () => 0.999_999)).toBeCloseTo(6500, 0);
  });
});

describe('connectionLostText', () => {
  const base = { closeCode: 1006, retryAt: 10_000, attempt: 1 } as const;
  it('is hidden on the first attempt, once connected, and when no reconnect is coming', () => {
    expect(connectionLostText({ status: 'connecting', closeCode: null, retryAt: null, attempt: 0 }, 0)).toBeNull();
    expect(connectionLostText({ ...base, status: 'connected' }, 0)).toBeNull();
    expect(connectionLostText({ ...base, status: 'disconnected', retryAt: null }, 0)).toBeNull();
  });
  it('shows the close code and the seconds left, rounded up', () => {
    expect(connectionLostText({ ...base, status: 'disconnected' }, 4_100)).toBe('WebSocket connection lost (1006). Reconnecting in 6s...');
    expect(connectionLostText({ ...base, status: 'connecting', retryAt: null }, 0)).toBe('WebSocket connection lost (1006). Reconnecting in 0s...');
  });
});

describe('viewerUrl', () => {
  it('follows the page scheme and carries the token and type=viewer', () => {
    expect(viewerUrl({ protocol: 'https:', host: 'spy.example.com' }, 'a b')).toBe('wss://spy.example.com/ws?token=a+b&type=viewer');
    expect(viewerUrl({ protocol: 'http:', host: 'localhost:8080' }, 't')).toBe('ws://localhost:8080/ws?token=t&type=viewer');
  });
});

describe('LiveConnection', () => {
  let token: string | null;
  let sockets: FakeSocket[];
  let connection: LiveConnection;
  const last = () => sockets.at(-1)!;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    token = 'tok';
    sockets = [];
    connection = new LiveConnection({
      readToken: () => token,
      createSocket: (t) => {
        const socket = new FakeSocket(t);
        sockets.push(socket);
        return socket;
      },
      random: () => 0.5,
      now: () => Date.now(),
      pingIntervalMs: 1000,
    });
  });

  afterEach(() => {
    connection.stop();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('reconnects after 5 s, 10 s, 20 s (+ jitter), and resets the attempt on connect', () => {
    connection.start();
    expect(connection.getState()).toMatchObject({ status: 'connecting', closeCode: null });
    last().drop(1006);
    expect(connection.getState()).toMatchObject({ status: 'disconnected', closeCode: 1006, attempt: 1, retryAt: Date.now() + 5750 });

    vi.advanceTimersByTime(5749);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    last().drop(1006);
    vi.advanceTimersByTime(10_749);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    last().drop(1011);
    expect(connection.getState()).toMatchObject({ closeCode: 1011, attempt: 3, retryAt: Date.now() + 20_750 });
    vi.advanceTimersByTime(20_750);

    last().open();
    expect(connection.getState()).toEqual({ status: 'connected', closeCode: null, retryAt: null, attempt: 0 });
    last().drop(1006);
    expect(connection.getState().retryAt).toBe(Date.now() + 5750);
  });

  it('does not log 1001 as a problem, and still reconnects', () => {
    const warn = vi.mocked(console.warn);
    connection.start();
    last().open();
    last().drop(1001);
    expect(warn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(6000);
    expect(sockets).toHaveLength(2);
    last().drop(1006);
    expect(warn).toHaveBeenCalledWith('Live channel closed (1006)');
  });

  it('does nothing without a stored token', () => {
    token = null;
    connection.start();
    expect(sockets).toHaveLength(0);
    expect(connection.getState().status).toBe('disconnected');

    token = 'tok';
    connection.stop();
    connection.start();
    last().open();
    token = null;
    last().drop(1006);
    vi.advanceTimersByTime(400_000);
    expect(sockets).toHaveLength(1);
    expect(connection.getState()).toMatchObject({ status: 'disconnected', retryAt: null });
  });

  it('hands typed messages to subscribers and ignores what it cannot read', () => {
    const all: string[] = [];
    const statuses: string[] = [];
    connection.subscribe((m) => all.push(m.type));
    connection.on('device_status', (m) => statuses.push(`${m.deviceId}:${m.online}`));
    connection.start();
    last().open();
    last().receive({ type: 'init', connectionId: 'c1' });
    last().receive({ type: 'device_status', deviceId: 'd1', online: true, name: 'Phone', sdkVersion: null, lastSeen: '2026-01-01T00:00:00.000Z', group: null });
    last().receive({ type: 'screen_capture_offer_from_the_future' });
    last().onmessage?.({ data: '{not json' });
    expect(all).toEqual(['init', 'device_status']);
    expect(statuses).toEqual(['d1:true']);
  });

  it('subscribes to the latest watched device, renews it after a reconnect and tells watchers to resync (also at a first open that finds watchers)', () => {
    const resyncs: Array<string | null> = [];
    connection.on('resync', (m) => resyncs.push(m.deviceId));
    const unwatchA = connection.watchDevice('a');
    connection.start();
    last().open();
    const unwatchB = connection.watchDevice('b');
    unwatchB();
    expect(last().sent).toEqual([{ type: 'subscribe', deviceId: 'a', batches: true }, { type: 'subscribe', deviceId: 'b', batches: true }, { type: 'subscribe', deviceId: 'a', batches: true }]);
    // 'a' was watched before the first open: its history may have been read unsubscribed.
    expect(resyncs).toEqual(['a']);

    last().drop(1006);
    vi.advanceTimersByTime(6000);
    last().open();
    expect(last().sent).toEqual([{ type: 'subscribe', deviceId: 'a', batches: true }]);
    expect(resyncs).toEqual(['a', 'a']);
    unwatchA();
    expect(last().sent.at(-1)).toEqual({ type: 'subscribe', deviceId: null, batches: true });
  });

  it('pings, resolves ping() at the pong, and counts an unanswered ping as a lost connection', async () => {
    connection.start();
    last().open();
    const answered = connection.ping();
    last().receive({ type: 'pong' });
    await expect(answered).resolves.toBeUndefined();

    const first = last();
    vi.advanceTimersByTime(1000);
    expect(first.sent.at(-1)).toEqual({ type: 'ping' });
    first.receive({ type: 'pong' });
    vi.advanceTimersByTime(1000);
    expect(first.closedWith).toBeNull();
    const lost = connection.ping();
    vi.advanceTimersByTime(1000);
    expect(first.closedWith).not.toBeNull();
    await expect(lost).rejects.toThrow('The live connection was lost');
    expect(connection.getState()).toMatchObject({ status: 'disconnected', closeCode: 1006 });
    vi.advanceTimersByTime(6000);
    expect(sockets).toHaveLength(2);
  });

  it('stop() closes the socket and cancels the reconnect', () => {
    connection.start();
    last().drop(1006);
    connection.stop();
    vi.advanceTimersByTime(400_000);
    expect(sockets).toHaveLength(1);
    connection.start();
    last().open();
    connection.stop();
    expect(sockets[1]!.closedWith).toBe(1000);
    expect(connection.getState()).toEqual({ status: 'disconnected', closeCode: null, retryAt: null, attempt: 0 });
  });
});
