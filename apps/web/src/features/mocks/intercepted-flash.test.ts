import { INTERCEPTED_HEADER, type ViewerOutbound } from '@spyglass/protocol';
import { networkItem } from '../../../../../packages/protocol/src/item-fixtures';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLASH_MS, InterceptedFlashes } from './intercepted-flash';

describe('intercepted icon flash (spec 001 §4)', () => {
  let emit: (message: ViewerOutbound) => void;
  let flashes: InterceptedFlashes;
  let live: number;

  beforeEach(() => {
    vi.useFakeTimers();
    live = 0;
    flashes = new InterceptedFlashes((onMessage) => {
      emit = onMessage;
      live += 1;
      return () => { live -= 1; };
    });
  });
  afterEach(() => vi.useRealTimers());

  const answered = (byItem: string) => networkItem({ num: 9, status: 418, responseHeaders: { [INTERCEPTED_HEADER]: byItem } });

  it('flashes the item named by the intercepted header for 0.5 s', () => {
    const seen = vi.fn();
    const stop = flashes.subscribe(seen);
    expect(live).toBe(1);
    emit({ type: 'new_request', deviceId: 'd', request: answered('item-7') });
    expect(flashes.flashOf('item-7')).toBeGreaterThan(0);
    expect(flashes.flashOf('other')).toBe(0);
    vi.advanceTimersByTime(FLASH_MS - 1);
    expect(flashes.flashOf('item-7')).toBeGreaterThan(0);
    vi.advanceTimersByTime(1);
    expect(flashes.flashOf('item-7')).toBe(0);
    expect(seen).toHaveBeenCalledTimes(2);
    stop();
    expect(live).toBe(0);
  });

  it('restarts the flash when the item intercepts again within 0.5 s', () => {
    flashes.subscribe(() => undefined);
    emit({ type: 'new_request', deviceId: 'd', request: answered('a') });
    const first = flashes.flashOf('a');
    vi.advanceTimersByTime(300);
    emit({ type: 'new_request', deviceId: 'd', request: answered('a') });
    expect(flashes.flashOf('a')).not.toBe(first);
    vi.advanceTimersByTime(300);
    expect(flashes.flashOf('a')).toBeGreaterThan(0);
    vi.advanceTimersByTime(200);
    expect(flashes.flashOf('a')).toBe(0);
  });

  it('reads the batches of new_requests too', () => {
    flashes.subscribe(() => undefined);
    emit({ type: 'new_requests', deviceId: 'd', requests: [networkItem({ num: 1 }), answered('b')] });
    expect(flashes.flashOf('b')).toBeGreaterThan(0);
  });

  it('ignores items no mock answered', () => {
    flashes.subscribe(() => undefined);
    emit({ type: 'new_request', deviceId: 'd', request: networkItem({ num: 1 }) });
    expect(flashes.flashOf('1')).toBe(0);
  });
});
