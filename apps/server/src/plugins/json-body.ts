import type { FastifyInstance } from 'fastify';

/**
 * The web client sends `Content-Type: application/json` on every call (spec 000 §7.1), also on
 * calls without a payload (logout, DELETE /user/{id}). Fastify's parser refuses an empty JSON
 * body; this one reads it as "no body" and otherwise keeps Fastify's parser with its
 * prototype-poisoning protection.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parse(request, text, done);
  });
}
