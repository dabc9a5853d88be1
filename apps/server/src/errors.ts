/**
 * What went wrong, in the domain's words. Services, the device path and the live side throw these
 * without knowing the transport; the HTTP error handler (plugins/error-handler.ts) is the one place
 * that maps a kind to a status code.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  /** A device or another upstream was reached but could not do what was asked. */
  | 'upstream_failed'
  /** A device was reached but did not answer in time. */
  | 'gateway_timeout';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra fields of the error answer (e.g. `trialExpired`, `codeError`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const isDomainError = (error: unknown, kind?: ErrorKind): error is DomainError =>
  error instanceof DomainError && (kind === undefined || error.kind === kind);

export const badRequest = (message: string, extra?: Record<string, unknown>) => new DomainError('bad_request', message, extra);
export const unauthorized = (message = 'Unauthorized') => new DomainError('unauthorized', message);
export const forbidden = (message = 'Forbidden') => new DomainError('forbidden', message);
export const notFound = (message = 'Not found') => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooManyRequests = (message = 'Too many requests, please try again later') => new DomainError('too_many_requests', message);
export const upstreamFailed = (message: string) => new DomainError('upstream_failed', message);
export const gatewayTimeout = (message: string) => new DomainError('gateway_timeout', message);
export const trialExpired = (message = 'Your trial has expired. Please consider upgrading to a paid plan') =>
  new DomainError('payment_required', message, { trialExpired: true });
