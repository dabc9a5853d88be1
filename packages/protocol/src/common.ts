import { z } from 'zod';
import { LIMITS } from './constants';

/**
 * zod 4 answers a missing or wrongly-typed field with "Invalid input: expected string, received
 * undefined"; the forms' texts (spec 000 §5) are what the user should read. Only the type issue gets
 * the text, so a field's other checks keep their own messages.
 */
export function whenMissing(message: string): (issue: z.core.$ZodRawIssue) => string | undefined {
  return (issue) => (issue.code === 'invalid_type' ? message : undefined);
}

/** An email field; `required` is what a missing one answers. */
export function emailField(required: string) {
  return z.string({ error: whenMissing(required) }).trim().toLowerCase().max(LIMITS.email).pipe(z.email({ error: 'Invalid email' }));
}
export const Email = emailField('Email is required');
export const Timezone = z.string().max(LIMITS.timezone);
export const Id = z.string().min(1).max(100);
/** Milliseconds since the epoch, serialised as an ISO string on the wire. */
export const IsoDate = z.iso.datetime({ offset: true });
export const IdParams = z.object({ id: Id });
