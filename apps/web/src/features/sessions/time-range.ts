import type { CompactItem } from '@spyglass/protocol';

/** An inclusive range of epoch milliseconds. */
export type TimeRange = readonly [from: number, to: number];

/** The items created within the range (all of them without one), in their order. */
export function itemsInRange(items: readonly CompactItem[], range: TimeRange | null): readonly CompactItem[] {
  if (!range) return items;
  return items.filter((item) => {
    const t = Date.parse(item.createdAt);
    return t >= range[0] && t <= range[1];
  });
}

/** Slider steps: a thousandth of the span, at least 1 ms, so that keys move it visibly on any span. */
export function rangeStep(bounds: TimeRange): number {
  return Math.max(1, Math.round((bounds[1] - bounds[0]) / 1000));
}
