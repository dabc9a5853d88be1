import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  BYTES_PER_MB, DEFAULT_USAGE_RANGE, USAGE_BAR_MAX_HEIGHT_PX, USAGE_RANGES, UsageResponse, isHourlyViewAllowed,
  type Subscription, type UsageRange,
} from '@spyglass/protocol';
import { api } from '../../lib/api';
import { Switch } from '../../ui/switch';
import { USAGE_QUERY_KEY } from '../billing/billing.api';
import { DataUsageExceededPanel, isOverQuota } from '../billing/data-usage-exceeded-panel';
import { SettingsSection } from './settings-section';
import { countTicks, timeTicks, usageBars } from './usage-chart';
import './usage.css';

/** Spec 000 §9: sizes in MB of 10^6 bytes. */
const megabytes = (bytes: number) => `${(bytes / BYTES_PER_MB).toLocaleString(undefined, { maximumFractionDigits: 2 })} MB`;

const barLabel = (start: number, hourly: boolean) => new Date(start).toLocaleString(undefined, hourly
  ? { month: 'short', day: 'numeric', hour: 'numeric' }
  : { year: 'numeric', month: 'short', day: 'numeric' });

const countLabel = (count: number) => count.toLocaleString(undefined, { notation: 'compact' });

/** Under the time axis: the day (with its year over a year's range), or the day and hour. */
const axisTimeLabel = (start: number, hourly: boolean, days: number) => new Date(start).toLocaleString(undefined, hourly
  ? { month: 'short', day: 'numeric', hour: 'numeric' }
  : { month: 'short', day: 'numeric', year: days >= 365 ? 'numeric' : undefined });

/** Spec 000 §2.5 Usage: requests and traffic per hour or day over 7, 30, 90 or 365 days. */
export function UsageSection({ subscription }: { subscription: Subscription | null }) {
  const [days, setDays] = useState<UsageRange>(DEFAULT_USAGE_RANGE);
  const [hourlyWanted, setHourly] = useState(false);
  const hourlyAllowed = isHourlyViewAllowed(days);
  const hourly = hourlyWanted && hourlyAllowed;
  const query = useQuery({
    queryKey: [...USAGE_QUERY_KEY, days],
    queryFn: () => api.get('/billing/usage', UsageResponse, { query: { days: String(days) } }),
  });
  const bars = query.data ? usageBars(query.data.requestsGroupedByHour, days, hourly, Date.now()) : [];
  const largest = Math.max(1, ...bars.map((b) => b.count));
  const hourlyId = useId();
  const total = bars.reduce((sum, b) => ({ count: sum.count + b.count, size: sum.size + b.size }), { count: 0, size: 0 });

  return (
    <SettingsSection title="Usage" id="usage">
      <div className="usage-body">
        {subscription && isOverQuota(subscription) && <DataUsageExceededPanel />}
        <div className="usage-toolbar">
          <div className="usage-ranges" role="group" aria-label="Range">
            {USAGE_RANGES.map((range) => (
              <button key={range} type="button" className="usage-range" aria-pressed={range === days} onClick={() => setDays(range)}>
                {range} days
              </button>
            ))}
          </div>
          <div className="usage-hourly">
            <Switch id={hourlyId} label="Hourly" checked={hourly} disabled={!hourlyAllowed} onChange={(e) => setHourly(e.target.checked)} />
            <label htmlFor={hourlyId}>Hourly</label>
          </div>
        </div>
        {query.error ? (
          <p className="usage-error" role="alert">Failed to load usage</p>
        ) : (
          <>
            <p className="usage-total" data-testid="usage-total">
              {total.count.toLocaleString()} requests · {megabytes(total.size)}
            </p>
            <div className="usage-plot">
              <p className="usage-axis-title" aria-hidden="true">{hourly ? 'Requests per hour' : 'Requests per day'}</p>
              <div className="usage-plot-row">
                <div className="usage-y-axis" aria-hidden="true" style={{ height: USAGE_BAR_MAX_HEIGHT_PX }}>
                  {countTicks(largest).map((count) => (
                    <span key={count} className="usage-y-tick" style={{ bottom: (count / largest) * USAGE_BAR_MAX_HEIGHT_PX }}>{countLabel(count)}</span>
                  ))}
                </div>
                <div className="usage-plot-area">
                  <div className="usage-chart" role="img" aria-label={`Usage over ${days} days`} data-bars={bars.length} style={{ height: USAGE_BAR_MAX_HEIGHT_PX }}>
                    {countTicks(largest).filter((count) => count > 0).map((count) => (
                      <span key={count} className="usage-gridline" style={{ bottom: (count / largest) * USAGE_BAR_MAX_HEIGHT_PX }} />
                    ))}
                    {bars.map((bar) => (
                      <div
                        key={bar.start}
                        className="usage-bar"
                        data-count={bar.count}
                        style={{ height: Math.round((bar.count / largest) * USAGE_BAR_MAX_HEIGHT_PX) }}
                        title={`${barLabel(bar.start, hourly)}: ${bar.count.toLocaleString()} requests, ${megabytes(bar.size)}`}
                      />
                    ))}
                  </div>
                  <div className="usage-x-axis" aria-hidden="true">
                    {timeTicks(bars).map((index, i, all) => (
                      <span
                        key={bars[index]!.start}
                        className={`usage-x-tick${i === 0 ? ' is-first' : i === all.length - 1 ? ' is-last' : ''}`}
                        style={{ left: `${((index + 0.5) / bars.length) * 100}%` }}
                      >
                        {axisTimeLabel(bars[index]!.start, hourly, days)}
                      </span>
                    ))}
                  </div>
                </div>
              </div>
            </div>
          </>
        )}
      </div>
    </SettingsSection>
  );
}
