/**
 * The widths to draw table columns at in `available` pixels. A column the user sized keeps its
 * width; the `flexible` ones (still at their default) share any overflow in proportion, none under
 * `min`. Only when the user's own widths leave no room is the sum larger than `available`, and the
 * table scrolls.
 */
export function fitColumnWidths(columns: ReadonlyArray<{ width: number; flexible: boolean }>, available: number, min: number): number[] {
  const widths = columns.map((c) => c.width);
  if (widths.reduce((sum, w) => sum + w, 0) <= available) return widths;
  let flexible = columns.flatMap((c, i) => (c.flexible ? [i] : []));
  // Columns that would go under the minimum are set to it and the rest share again.
  for (;;) {
    const fixed = widths.reduce((sum, w, i) => (flexible.includes(i) ? sum : sum + w), 0);
    const flexibleTotal = flexible.reduce((sum, i) => sum + columns[i]!.width, 0);
    if (flexibleTotal === 0) return widths;
    const scale = Math.max(0, available - fixed) / flexibleTotal;
    const tooNarrow = flexible.filter((i) => columns[i]!.width * scale < min);
    if (tooNarrow.length === 0) {
      for (const i of flexible) widths[i] = Math.floor(columns[i]!.width * scale);
      return widths;
    }
    for (const i of tooNarrow) widths[i] = min;
    flexible = flexible.filter((i) => !tooNarrow.includes(i));
  }
}
