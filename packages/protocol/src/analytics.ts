import { z } from 'zod';
import { ANALYTICS_EVENT_TYPES } from './constants';

export const AnalyticsEventType = z.enum(ANALYTICS_EVENT_TYPES);
/** Event data is a small flat record (e.g. platform and language of a copied snippet). */
export const TrackBody = z.strictObject({
  eventType: AnalyticsEventType,
  eventData: z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
    .refine((d) => Object.keys(d).length <= 20, 'Too many event fields')
    .optional(),
});
export type TrackBody = z.infer<typeof TrackBody>;
