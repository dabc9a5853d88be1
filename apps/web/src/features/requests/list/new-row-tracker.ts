import { NEW_ROW_ANIMATION } from './list-constants';

/**
 * Remembers which items just arrived live, so that their row animates in when it first mounts
 * (spec 001 §4 'A new row animates in'), while rows that mount because the user scrolled to them
 * do not. Marks expire after the animation's duration: a row mounted later is not new any more.
 */
export class NewRowTracker {
  private readonly arrivals = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  mark(ids: Iterable<string>): void {
    const at = this.now();
    for (const id of ids) this.arrivals.set(id, at);
    if (this.arrivals.size > 10_000) this.prune(at);
  }

  /** True once for an item that arrived within the animation's duration. */
  take(id: string): boolean {
    const at = this.arrivals.get(id);
    if (at === undefined) return false;
    this.arrivals.delete(id);
    return this.now() - at < NEW_ROW_ANIMATION.durationMs;
  }

  private prune(now: number): void {
    for (const [id, at] of this.arrivals) {
      if (now - at >= NEW_ROW_ANIMATION.durationMs) this.arrivals.delete(id);
    }
  }
}
