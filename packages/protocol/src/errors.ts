import { z } from 'zod';

/** Every error the API answers has this body; 402 adds `trialExpired`. */
export const ErrorBody = z.object({
  error: z.string(),
  trialExpired: z.boolean().optional(),
  /** A mocked route's dynamic script failed its check: `error` is the excerpt shown under the code editor (spec 002 §5). */
  codeError: z.boolean().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const SuccessBody = z.object({ success: z.literal(true) });
export type SuccessBody = z.infer<typeof SuccessBody>;
