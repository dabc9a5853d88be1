import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ListStore } from '../store/list-store';
import { ChartBinner } from './chart-binner';
import { barLabel, binAt, binSpan, binStart, CHART_GRANULARITIES, type ChartBins, type ChartGranularity } from './chart-bins';
import './bar-chart.css';

/** Spec 001 §9: chart height 150, bars at least 32 wide. */
export const CHART_HEIGHT = 150;
export const BAR_WIDTH = 32;
const BAR_GAP = 4;
const SLOT = BAR_WIDTH + BAR_GAP;
/** Bars drawn beyond each side of the view, so a fast scroll shows no gap. */
const OVERSCAN_BARS = 4;
/** The scroll area's side padding (bar-chart.css). */
const CHART_PADDING = 10;
/** About the widest tooltip, to tell whether it fits right of a bar. */
const TOOLTIP_WIDTH = 170;
const TOOLTIP_GAP = 6;

export interface BarChartProps {
  store: ListStore;
  /** A bar was clicked: the row index (in the list's current view) of the bin's first request. */
  onBinClick: (firstIndexInBin: number) => void;
}

/** 24-hour time like the bar labels and the list's timestamps (spec 001 §9). */
const tooltipDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });

function requestsText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'request' : 'requests'}`;
}

/**
 * Request counts over time for the shown rows (spec 001 'Bar chart'): bins of 1, 5, 30 or 60
 * minutes (default 5), empty bins drawn as zero, heights scaled by the largest count. Only the
 * bars in view are in the DOM, so a long history at one-minute bins scrolls as cheaply as an hour.
 */
export function BarChart({ store, onBinClick }: BarChartProps) {
  const binner = useMemo(() => new ChartBinner(store), [store]);
  useEffect(() => () => binner.dispose(), [binner]);
  const bins = useSyncExternalStore(binner.subscribe, binner.getSnapshot, binner.getSnapshot);
  const [granularity, setGranularity] = useState<ChartGranularity>(binner.granularity);
  const choose = (g: ChartGranularity) => {
    binner.setGranularity(g);
    setGranularity(g);
  };

  return (
    <section className="bar-chart" style={{ height: CHART_HEIGHT }} aria-label="Requests over time">
      <div className="bar-chart-head">
        <span className="bar-chart-title">Requests per {granularity} min</span>
        <div className="bar-chart-granularity" role="group" aria-label="Granularity">
          {CHART_GRANULARITIES.map((g) => (
            <button key={g} type="button" className="bar-chart-granularity-btn" aria-pressed={g === granularity} onClick={() => choose(g)}>
              {g} min
            </button>
          ))}
        </div>
      </div>
      {bins.total === 0 ? (
        <div className="bar-chart-empty">Can not show chart. No requests to display.</div>
      ) : (
        <Bars bins={bins} granularity={granularity} onBinClick={onBinClick} />
      )}
    </section>
  );
}

/** The hovered bin and its bar's left edge in the visible part of the chart. */
interface Hover { key: number; left: number }

function Bars({ bins, granularity, onBinClick }: { bins: ChartBins; granularity: ChartGranularity; onBinClick: (index: number) => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ left: 0, width: 0 });
  const [hover, setHover] = useState<Hover | null>(null);
  /** Whether the newest bars were in view: then new bins keep them in view, as a live chart should. */
  const atEnd = useRef(true);

  // A short history is drawn as a timeline filling the chart: empty (zero) bins before the first
  // request, so that its bars stand at the right, next to now, with the times leading up to them.
  const span = Math.max(binSpan(bins), Math.floor((view.width - 2 * CHART_PADDING) / SLOT));
  const lastKey = bins.keys.length === 0 ? 0 : bins.keys[bins.keys.length - 1]!;
  const firstKey = lastKey - span + 1;
  const trackWidth = span * SLOT;

  const measure = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    atEnd.current = el.scrollLeft + el.clientWidth >= el.scrollWidth - 2;
    setView((v) => (v.left === el.scrollLeft && v.width === el.clientWidth ? v : { left: el.scrollLeft, width: el.clientWidth }));
  }, []);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && atEnd.current) {
      el.scrollLeft = el.scrollWidth;
      setView((v) => (v.left === el.scrollLeft && v.width === el.clientWidth ? v : { left: el.scrollLeft, width: el.clientWidth }));
    }
  }, [trackWidth]);

  const from = Math.max(0, Math.floor(view.left / SLOT) - OVERSCAN_BARS);
  const to = Math.min(span, Math.ceil((view.left + Math.max(view.width, SLOT)) / SLOT) + OVERSCAN_BARS);
  const bars = [];
  for (let i = from; i < to; i++) {
    const key = firstKey + i;
    const { count, firstIndex } = binAt(bins, key);
    const start = binStart(bins, key);
    const height = count === 0 ? 0 : Math.max(2, (count / bins.max) * 100);
    const label = `${requestsText(count)}, ${tooltipDate.format(start)}`;
    const show = () => setHover({ key, left: i * SLOT - view.left });
    bars.push(
      <button
        key={key}
        type="button"
        className="bar-chart-bar"
        style={{ left: i * SLOT, width: BAR_WIDTH }}
        aria-label={label}
        // Empty bars still show their tooltip (count 0), but lead nowhere.
        aria-disabled={count === 0 || undefined}
        tabIndex={count === 0 ? -1 : undefined}
        onClick={() => {
          if (count > 0) onBinClick(firstIndex);
        }}
        onPointerEnter={show}
        onFocus={show}
        onPointerLeave={() => setHover(null)}
        onBlur={() => setHover(null)}
      >
        <span className="bar-chart-plot">
          <span className="bar-chart-fill" style={{ height: `${height}%` }} />
        </span>
        <span className="bar-chart-label">{barLabel(start, granularity)}</span>
      </button>,
    );
  }

  const hovered = hover ? binAt(bins, hover.key) : null;
  return (
    <div className="bar-chart-body">
      <div ref={scrollRef} className="bar-chart-scroll" onScroll={measure}>
        <div className="bar-chart-track" style={{ width: trackWidth }}>{bars}</div>
      </div>
      {hover && hovered && (
        // Beside the bar, never over it: right of it where there is room, else left of it.
        <div
          className="bar-chart-tooltip"
          role="tooltip"
          style={hover.left + BAR_WIDTH + TOOLTIP_GAP + TOOLTIP_WIDTH <= view.width
            ? { left: hover.left + BAR_WIDTH + TOOLTIP_GAP + CHART_PADDING }
            : { left: hover.left - TOOLTIP_GAP + CHART_PADDING, transform: 'translateX(-100%)' }}
        >
          <strong>{requestsText(hovered.count)}</strong>
          <span>{tooltipDate.format(binStart(bins, hover.key))}</span>
        </div>
      )}
    </div>
  );
}
