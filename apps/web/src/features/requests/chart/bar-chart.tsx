import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ItemStore } from '../store/item-store';
import { ChartBinner } from './chart-binner';
import { binAt, binSpan, binStart, CHART_GRANULARITIES, type ChartBins, type ChartGranularity } from './chart-bins';
import './bar-chart.css';

/** Spec 001 §9: chart height 150, bars at least 32 wide. */
export const CHART_HEIGHT = 150;
export const BAR_WIDTH = 32;
const BAR_GAP = 4;
const SLOT = BAR_WIDTH + BAR_GAP;
/** Bars drawn beyond each side of the view, so a fast scroll shows no gap. */
const OVERSCAN_BARS = 4;
/** Half the tooltip's width: it stays inside the chart at both ends. */
const TOOLTIP_HALF = 80;

export interface BarChartProps {
  store: ItemStore;
  /** A bar was clicked: the row index (in the list's current view) of the bin's first request. */
  onBinClick: (firstIndexInBin: number) => void;
}

const tooltipDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Spec 001 'Bar chart': the label shows hours only at a granularity of 60 minutes or more. */
export function barLabel(start: number, granularity: ChartGranularity): string {
  const d = new Date(start);
  return granularity >= 60 ? `${pad2(d.getHours())}h` : `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

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

interface Hover { key: number; left: number }

function Bars({ bins, granularity, onBinClick }: { bins: ChartBins; granularity: ChartGranularity; onBinClick: (index: number) => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ left: 0, width: 0 });
  const [hover, setHover] = useState<Hover | null>(null);
  /** Whether the newest bars were in view: then new bins keep them in view, as a live chart should. */
  const atEnd = useRef(true);

  const span = binSpan(bins);
  const firstKey = span === 0 ? 0 : bins.keys[0]!;
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
    const show = () => setHover({ key, left: i * SLOT - view.left + BAR_WIDTH / 2 });
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
        <div className="bar-chart-tooltip" role="tooltip" style={{ left: Math.min(Math.max(TOOLTIP_HALF, hover.left), Math.max(TOOLTIP_HALF, view.width - TOOLTIP_HALF)) }}>
          <strong>{requestsText(hovered.count)}</strong>
          <span>{tooltipDate.format(binStart(bins, hover.key))}</span>
        </div>
      )}
    </div>
  );
}
