import { interceptedItemId, type CapturedItem, type ViewerOutbound } from '@spyglass/protocol';
import { useSyncExternalStore } from 'react';
import { liveConnection } from '../../lib/live';

/** Spec 001 §4: the intercepted icon flashes for 0.5 s. */
export const FLASH_MS = 500;

/**
 * Which items' intercepted icons flash now: an item's flash starts when a network item arrives
 * whose answer came from that item's mock (its `Spyglass-Intercepted` header names it). One live
 * subscription for all rows, made when the first icon is shown.
 */
export class InterceptedFlashes {
  /** Item id → flash number; a new flash of the same item gets a new number (the animation restarts). */
  private readonly flashing = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private counter = 0;
  private unsubscribeLive: (() => void) | null = null;

  constructor(
    private readonly listen: (onMessage: (message: ViewerOutbound) => void) => () => void,
    private readonly timers: { setTimeout(callback: () => void, ms: number): unknown } = globalThis,
  ) {}

  noteItem(item: Pick<CapturedItem, 'type' | 'details'>): void {
    const id = interceptedItemId(item);
    if (id !== undefined) this.flash(id);
  }

  flash(itemId: string): void {
    const number = ++this.counter;
    this.flashing.set(itemId, number);
    this.notify();
    this.timers.setTimeout(() => {
      if (this.flashing.get(itemId) !== number) return;
      this.flashing.delete(itemId);
      this.notify();
    }, FLASH_MS);
  }

  /** The running flash's number, or 0 when the item's icon is not flashing. */
  flashOf = (itemId: string): number => this.flashing.get(itemId) ?? 0;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.unsubscribeLive ??= this.listen((message) => {
      if (message.type === 'new_request') this.noteItem(message.request);
      else if (message.type === 'new_requests') for (const item of message.requests) this.noteItem(item);
    });
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.unsubscribeLive?.();
        this.unsubscribeLive = null;
      }
    };
  };

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export const interceptedFlashes = new InterceptedFlashes((onMessage) => liveConnection.subscribe(onMessage));

/**
 * The flash of an item's intercepted icon: 0 when not flashing, else a number to key the icon's
 * animation with (so that a second interception within 0.5 s restarts it).
 */
export function useInterceptedFlash(itemId: string): number {
  return useSyncExternalStore(interceptedFlashes.subscribe, () => interceptedFlashes.flashOf(itemId));
}
