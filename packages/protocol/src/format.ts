/**
 * Formatting of captured-item values for the list, the details panel and the exports
 * (spec 001 §5 and §9). Pure and allocation-light: the table formats every visible row on scroll.
 */
import type { CompactItem } from './items';

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;
/** Spec 001 §9: sizes under 1 MB in KB, then MB, GB from 100 GB. */
const GB_FROM = 100 * GB;

const sizeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Bytes as the list shows them: `0.5 KB`, `12.34 MB`, `102,399 MB`, `100 GB`. Empty for a missing size. */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < MB) return `${sizeNumber.format(bytes / KB)} KB`;
  if (bytes < GB_FROM) return `${sizeNumber.format(bytes / MB)} MB`;
  return `${sizeNumber.format(bytes / GB)} GB`;
}

/** A duration in milliseconds: `0.42 ms`, `120 ms`, `1.25 s`, `2 min 5 s`. Empty when unknown. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 10) return `${sizeNumber.format(ms)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${sizeNumber.format(ms / 1000)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

export interface TimestampOptions {
  /** Prefix the calendar date (`2026-11-23 14:03:27.123`). */
  withDate?: boolean;
  /** Format in UTC instead of the viewer's time zone (tests, exports). */
  utc?: boolean;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** Spec 001 §9: 24 hours with milliseconds (`14:03:27.123`). Empty for an unparsable value. */
export function formatTimestamp(value: string | number | Date | null | undefined, options: TimestampOptions = {}): string {
  if (value === null || value === undefined) return '';
  const date = value instanceof Date ? value : new Date(value);
  const t = date.getTime();
  if (Number.isNaN(t)) return '';
  const utc = options.utc === true;
  const time = `${pad2(utc ? date.getUTCHours() : date.getHours())}:${pad2(utc ? date.getUTCMinutes() : date.getMinutes())}:`
    + `${pad2(utc ? date.getUTCSeconds() : date.getSeconds())}.${pad3(utc ? date.getUTCMilliseconds() : date.getMilliseconds())}`;
  if (!options.withDate) return time;
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const month = (utc ? date.getUTCMonth() : date.getMonth()) + 1;
  const day = utc ? date.getUTCDate() : date.getDate();
  return `${year}-${pad2(month)}-${pad2(day)} ${time}`;
}

/** Colour class of a status code (spec 001 §5: below 300 success, below 400 info, below 500 warning, else error). */
export type StatusClass = 'success' | 'info' | 'warning' | 'error';

export function statusClass(status: number | null | undefined): StatusClass | null {
  if (status === null || status === undefined || !Number.isFinite(status)) return null;
  if (status < 300) return 'success';
  if (status < 400) return 'info';
  if (status < 500) return 'warning';
  return 'error';
}

/** Spec 001 §5: a status text only for these codes, blank for every other. */
export const STATUS_TEXTS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function statusText(status: number | null | undefined): string {
  return status === null || status === undefined ? '' : STATUS_TEXTS[status] ?? '';
}

/** The status code of an item: the response's for network items, else the item's own. */
export function itemStatus(item: CompactItem): number | null {
  if (item.type === 'network') return item.details.response?.statusCode ?? item.status;
  return item.status;
}

/** What the Details column shows for a row: the request line, the log message or the name. */
export function itemSummary(item: CompactItem): string {
  switch (item.type) {
    case 'network': return `${item.details.request.method} ${item.details.request.url}`;
    case 'log': return item.details.message;
    case 'event':
    case 'screenshot':
    case 'firebaseAnalytics':
      return item.details.name;
  }
}

/** The Category column: log, event and analytics categories. */
export function itemCategory(item: CompactItem): string | null {
  return item.type === 'log' || item.type === 'event' || item.type === 'firebaseAnalytics' ? item.details.category ?? null : null;
}

/** The Subsystem column (logs only). */
export function itemSubsystem(item: CompactItem): string | null {
  return item.type === 'log' ? item.details.subsystem ?? null : null;
}
