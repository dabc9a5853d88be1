import { z } from 'zod';
import { IsoDate } from './common';

/** Spec 000 §9: the usage chart's ranges in days, 30 by default. */
export const USAGE_RANGES = [7, 30, 90, 365] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
export const DEFAULT_USAGE_RANGE: UsageRange = 30;
/** Spec 000 §9: the hourly view is disabled for 90 days or more. */
export const HOURLY_VIEW_MAX_DAYS = 90;
/** Spec 000 §9: the tallest bar of the usage chart. */
export const USAGE_BAR_MAX_HEIGHT_PX = 250;
/** Spec 000 §9: usage sizes are shown in MB of 10^6 bytes. */
export const BYTES_PER_MB = 1_000_000;

export const isHourlyViewAllowed = (days: number): boolean => days < HOURLY_VIEW_MAX_DAYS;

/** How many bars a range shows: one per day, or 24 per day in the hourly view. */
export const usageBarCount = (days: number, hourly: boolean): number => (hourly && isHourlyViewAllowed(days) ? 24 * days : days);

export const UsageQuery = z.object({
  days: z.coerce.number().int().refine((d): d is UsageRange => (USAGE_RANGES as readonly number[]).includes(d), 'days must be 7, 30, 90 or 365')
    .default(DEFAULT_USAGE_RANGE),
});

/** Spec 000 §3 Usage: one hour of an account's traffic (items received, and their bytes). */
export const UsageHour = z.object({ hour: IsoDate, count: z.number().int().nonnegative(), size: z.number().int().nonnegative() });
export type UsageHour = z.infer<typeof UsageHour>;
export const UsageResponse = z.object({ requestsGroupedByHour: z.array(UsageHour) });
export type UsageResponse = z.infer<typeof UsageResponse>;

/** Spec 000 §3 Invoice: times in unix seconds, amount_due in cents (shown divided by 100). */
export const Invoice = z.object({
  id: z.string(),
  created: z.number().int(),
  period_start: z.number().int(),
  period_end: z.number().int(),
  amount_due: z.number().int(),
  currency: z.string(),
  status: z.string().nullable(),
  invoice_pdf: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;
export const InvoicesResponse = z.object({ invoices: z.array(Invoice) });
export type InvoicesResponse = z.infer<typeof InvoicesResponse>;
