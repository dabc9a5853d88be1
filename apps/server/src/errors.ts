/** A domain error that the error handler turns into `{error: message}` with this status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message = 'Too many requests, please try again later') => new HttpError(429, message);
export const trialExpired = (message = 'Your trial has expired. Please consider upgrading to a paid plan') =>
  new HttpError(402, message, { trialExpired: true });
