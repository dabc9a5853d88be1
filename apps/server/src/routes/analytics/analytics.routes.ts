import { SuccessBody, TrackBody } from '@spyglass/protocol';
import type { App } from '../../context';
import { insertAnalyticsEvent } from '../../repositories/analytics-events.repository';

/** Product analytics stay on this server: no third-party tracker. */
export async function analyticsRoutes(app: App): Promise<void> {
  app.post('/analytics/track', { schema: { body: TrackBody, response: { 200: SuccessBody } } }, async (req) => {
    await insertAnalyticsEvent(app.ctx.db, req.user.id, req.body.eventType, req.body.eventData, app.ctx.now());
    return { success: true as const };
  });
}
