import { formatDuration, formatSize, formatTimestamp, itemCategory, itemStatus, itemSubsystem, itemSummary, type CompactItem } from '@spyglass/protocol';
import type { TableColumnId } from './columns';
import { TYPE_LABELS } from './item-cells';
import { isInFlight } from './waiting-timer';

/** A cell's horizontal padding (request-table.css `.req-td`), both sides. */
const CELL_PADDING = 16;
/** Room left for rounding between the canvas's measure and the row's layout. */
const SLACK = 2;
/** `.req-type-icon` and the gap after it. */
const TYPE_ICON = 12 + 5;
/** `.req-level`'s horizontal padding. */
const LEVEL_PADDING = 12;
/**
 * No printable ASCII character of a sans-serif UI font is wider than this many em (the widest,
 * W, M, m or @, are 0.9-1.0 em in the fonts of --font-sans and DejaVu Sans).
 */
const ASCII_EM = 1.1;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Widths kept per font, for texts that repeat (labels, levels, categories); cleared past this many. */
const CACHE_LIMIT = 2000;

/** The advance width of a text in one of the cells' fonts; NaN without a canvas (jsdom), which fits nothing. */
export type Measure = (text: string) => number;

/** The cells' fonts (request-table.css), as measures. */
export interface CellFonts {
  /** 12px sans: ids, type labels, categories, messages. */
  sans: Measure;
  /** 11.5px mono: times, durations, sizes. */
  mono: Measure;
  /** `.req-status`: 11.5px mono, 600. */
  monoBold: Measure;
  /** `.req-level`: 11px sans, 500. */
  level: Measure;
}

let context: CanvasRenderingContext2D | null | undefined;
let canvasFonts: CellFonts | null | undefined;

function canvasMeasure(font: string): Measure {
  const widths = new Map<string, number>();
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      if (!context) return Number.NaN;
      context.font = font;
      width = context.measureText(text).width;
      if (widths.size >= CACHE_LIMIT) widths.clear();
      widths.set(text, width);
    }
    return width;
  };
}

/** The cells' fonts from the page's font stacks, once; null where they cannot be measured. */
function pageFonts(): CellFonts | null {
  if (canvasFonts !== undefined) return canvasFonts;
  const style = getComputedStyle(document.documentElement);
  const sans = style.getPropertyValue('--font-sans').trim();
  const mono = style.getPropertyValue('--font-mono').trim();
  // The stylesheet not applied yet: asked again at the next row.
  if (!sans || !mono) return null;
  try {
    context = document.createElement('canvas').getContext('2d');
  } catch {
    context = null;
  }
  canvasFonts = context ? {
    sans: canvasMeasure(`12px ${sans}`),
    mono: canvasMeasure(`11.5px ${mono}`),
    monoBold: canvasMeasure(`600 11.5px ${mono}`),
    level: canvasMeasure(`500 11px ${sans}`),
  } : null;
  return canvasFonts;
}

/**
 * Digits are drawn tabular (or mono): a text with its digits all turned into the widest one is at
 * least as wide as any text of that shape, and one text stands for all of them.
 */
const widestDigits = new WeakMap<Measure, string>();
function widestDigit(measure: Measure): string {
  let widest = widestDigits.get(measure);
  if (widest === undefined) {
    widest = '0';
    for (let d = 1; d <= 9; d++) if (measure(String(d)) > measure(widest)) widest = String(d);
    widestDigits.set(measure, widest);
  }
  return widest;
}
const digitsAsWidest = (measure: Measure, text: string) => measure(text.replace(/[0-9]/g, widestDigit(measure)));
/** The width of every time (one shape), per font. */
let timeWidth: { font: Measure; width: number } | undefined;

/**
 * Whether a cell's content surely fits its column, so that the cell can be drawn without its
 * overflow clip (`is-fit`): every clipped cell is a clip of its own that Chromium's paint,
 * pre-paint and layerization walk each frame, and at 1,000 items/s ~17 new rows of them mount at
 * the top every frame (bench 41). Content that might not fit keeps the clip and its ellipsis,
 * so the table looks the same either way. The fonts and sizes are request-table.css's.
 */
export function cellFits(item: CompactItem, column: TableColumnId, width: number, fonts: CellFonts | null = pageFonts()): boolean {
  if (!fonts) return false;
  let needed: number;
  switch (column) {
    case 'id':
      needed = String(item.num).length * fonts.sans(widestDigit(fonts.sans));
      break;
    case 'createdAt':
      if (timeWidth?.font !== fonts.mono) timeWidth = { font: fonts.mono, width: digitsAsWidest(fonts.mono, formatTimestamp(0)) };
      needed = timeWidth.width;
      break;
    case 'type':
      needed = TYPE_ICON + fonts.sans(TYPE_LABELS[item.type]);
      break;
    case 'level':
      needed = item.level ? LEVEL_PADDING + fonts.level(item.level.toLowerCase()) : 0;
      break;
    case 'category':
      needed = fonts.sans(itemCategory(item) ?? '');
      break;
    case 'subsystem':
      needed = fonts.sans(itemSubsystem(item) ?? '');
      break;
    case 'status': {
      const status = itemStatus(item);
      needed = status === null ? 0 : digitsAsWidest(fonts.monoBold, String(status));
      break;
    }
    case 'duration':
      // The waiting timer counts up while it is shown: it keeps the clip.
      if (isInFlight(item)) return false;
      needed = digitsAsWidest(fonts.mono, formatDuration(item.duration));
      break;
    case 'size':
      needed = digitsAsWidest(fonts.mono, formatSize(item.size));
      break;
    case 'details': {
      // Network rows (pill, method, URL) and mocked rows (a mark after the text) keep the clip.
      // A log's message or an event's name alone: rarely the same twice, so not measured (a
      // canvas measure per new row cost more than the clip) but bounded, printable ASCII at most
      // ASCII_EM of the font size a character.
      if (item.type === 'network' || item.isMocked) return false;
      const summary = itemSummary(item);
      if (!PRINTABLE_ASCII.test(summary)) return false;
      needed = summary.length * 12 * ASCII_EM;
      break;
    }
  }
  return needed <= width - CELL_PADDING - SLACK;
}

