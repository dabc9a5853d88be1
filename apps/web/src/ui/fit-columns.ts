/**
 * The widths to draw table columns at in `available` pixels. A column the user sized keeps its
 * width; the `flexible` ones (still at their default) share any overflow in proportion, none under
 * `min`. When even that does not fit (a phone, or the user's own widths), nothing is squeezed: the
 * table scrolls sideways with every column at its width, instead of scrolling anyway with columns
 * too narrow to read ('i…' for 'iPhone 15').
 */
export function fitColumnWidths(columns: ReadonlyArray<{ width: number; flexible: boolean }>, available: number, min: number): number[] {
  const widths = columns.map((c) => c.width);
  const total = widths.reduce((sum, w) => sum + w, 0);
  if (total <= available) return widths;
  const fixedTotal = columns.reduce((sum, c) => sum + (c.flexible ? Math.min(c.width, min) : c.width), 0);
  if (fixedTotal > available) return widths;
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
