import { SuccessBody, type TrackBody } from '@spyglass/protocol';
import { api } from './api';

/** Product analytics of spec 000 §7.5, stored by our own server; a failure never bothers the user. */
export function track(eventType: TrackBody['eventType'], eventData?: TrackBody['eventData']): void {
  api.post('/analytics/track', { eventType, eventData }, SuccessBody).catch((error: unknown) => {
    console.error(`Failed to track ${eventType}`, error);
  });
}
