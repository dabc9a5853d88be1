/**
 * How many search tags the field shows on its one row while not focused, the others counted by a
 * '+N' chip after them (focused, the field grows over the list and shows them all).
 */
export interface TagFit {
  /** Tags shown, from the first. */
  shown: number;
  /**
   * The width the first tag is cut to (its value ellipsized) when even it does not fit beside the
   * chip; null when every shown tag keeps its own width.
   */
  firstMaxWidth: number | null;
}

/**
 * `widths`: each tag's own width; `room`: the field's inner width; `gap`: between items;
 * `chip`: the '+N' chip's width. Tags are shown in order, as many as fit whole beside the chip,
 * and always the first: a tag cut short says more than a field with only '+3' in it.
 */
export function fitTags(widths: readonly number[], room: number, gap: number, chip: number): TagFit {
  const n = widths.length;
  const all = widths.reduce((sum, w) => sum + w, 0) + gap * Math.max(0, n - 1);
  if (all <= room) return { shown: n, firstMaxWidth: null };
  let used = 0;
  let shown = 0;
  for (const width of widths) {
    const next = used + (shown > 0 ? gap : 0) + width;
    if (next + gap + chip > room) break;
    used = next;
    shown++;
  }
  if (shown > 0) return { shown, firstMaxWidth: null };
  return { shown: 1, firstMaxWidth: Math.max(0, Math.floor(room - (n > 1 ? gap + chip : 0))) };
}
