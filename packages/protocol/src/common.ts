import { z } from 'zod';
import { LIMITS } from './constants';

export const Email = z.string().trim().toLowerCase().max(LIMITS.email).pipe(z.email({ error: 'Invalid email' }));
export const Timezone = z.string().max(LIMITS.timezone);
export const Id = z.string().min(1).max(100);
/** Milliseconds since the epoch, serialised as an ISO string on the wire. */
export const IsoDate = z.iso.datetime({ offset: true });
export const IdParams = z.object({ id: Id });
