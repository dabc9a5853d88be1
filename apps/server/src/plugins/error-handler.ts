import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type ErrorKind } from '../errors';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  upstream_failed: 502,
  gateway_timeout: 504,
};

interface Issue {
  path: string;
  message: string;
}

/**
 * One place turns every failure into `{error}` with the right status. Validation failures name
 * every failed rule (one per line, as the sign-up form lists password rules); 5xx answers never
 * carry a stack, SQL or driver message: those go to the log only.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues: Issue[] = error.validation.map((v) => ({
        path: [error.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ error: issues.map((i) => i.message).join('\n'), issues });
    }
    if (error instanceof DomainError) {
      return reply.status(STATUS[error.kind]).send({ error: error.message, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type) have safe messages.
      return reply.status(status).send({ error: clientMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` }));
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type: send application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Body cannot be empty when content-type is set to application/json';
    default:
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return 'Malformed JSON body';
      return error.message;
  }
}
