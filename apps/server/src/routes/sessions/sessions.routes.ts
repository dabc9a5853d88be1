import { z } from 'zod';
import {
  CapturedItem, CreateSessionBody, LookupRequestsResponse, Session, SESSION_MAX_ITEMS, SESSION_MESSAGES, SessionItemsLookupBody, SessionItemsPage,
  SessionItemsQuery, SessionList, SuccessBody, UpdateSessionBody,
} from '@spyglass/protocol';
import type { App } from '../../context';
import { notFound } from '../../errors';
import {
  deleteSessions, findSession, findSessionItem, findSessionItems, findSessionItemsPage, findSessionsForUser, MissingRequestsError,
  toSession, updateSession,
} from '../../repositories/sessions.repository';
import { saveSession, SessionSaveGate } from '../../services/session-saves.service';
import { REQUEST_NOT_FOUND, requireDevice, serializeTrusted } from '../route-helpers';

const SessionParams = z.object({ id: z.string().min(1).max(100) });
const SessionItemParams = z.object({ id: z.string().min(1).max(100), itemId: z.string().min(1).max(100) });

/** Room for the largest session's ids (100 characters each, quoted, comma) plus the rest of the body. */
const CREATE_BODY_LIMIT = SESSION_MAX_ITEMS * 104 + 64 * 1024;

/** Spec 001 §7 /sessions: save, list, rename, share, delete; every query scoped to the signed-in owner. */
export async function sessionsRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const present = (row: Parameters<typeof toSession>[0]) => toSession(row, ctx.config.shareUrl);

  const requireSession = async (userId: string, id: string) => {
    const row = await findSession(ctx.db, userId, id);
    if (!row) throw notFound(SESSION_MESSAGES.notFound);
    return row;
  };

  // Admitted before the body is read (route hooks run after the tree's authentication).
  const gate = new SessionSaveGate(ctx.config.sessionLimits.maxConcurrentSaves);
  app.post('/sessions', {
    bodyLimit: CREATE_BODY_LIMIT,
    schema: { body: CreateSessionBody, response: { 201: Session } },
    onRequest: async (req) => gate.enter(req, req.user.id),
    onResponse: async (req) => gate.leave(req),
    onRequestAbort: async (req) => gate.leave(req),
  }, async (req, reply) => {
    const { deviceId, name, requestIds } = req.body;
    const device = await requireDevice(ctx, req.user.id, deviceId);
    try {
      const row = await saveSession(ctx, { userId: req.user.id, device, name, requestIds });
      return reply.status(201).send(present(row));
    } catch (error) {
      if (error instanceof MissingRequestsError) {
        throw notFound(error.total === 1 ? REQUEST_NOT_FOUND : error.message);
      }
      throw error;
    }
  });

  app.get('/sessions', { schema: { response: { 200: SessionList } } }, async (req) =>
    (await findSessionsForUser(ctx.db, req.user.id)).map(present));

  app.get('/sessions/:id', { schema: { params: SessionParams, response: { 200: Session } } }, async (req) =>
    present(await requireSession(req.user.id, req.params.id)));

  app.put('/sessions/:id', { schema: { params: SessionParams, body: UpdateSessionBody, response: { 200: Session } } }, async (req) => {
    await requireSession(req.user.id, req.params.id);
    const row = await updateSession(ctx.db, req.user.id, req.params.id, req.body, ctx.now());
    if (!row) throw notFound(SESSION_MESSAGES.notFound);
    return present(row);
  });

  app.delete('/sessions/:id', { schema: { params: SessionParams, response: { 200: SuccessBody } } }, async (req) => {
    const deleted = await deleteSessions(ctx.db, ctx.blobs, req.user.id, [req.params.id]);
    if (deleted.length === 0) throw notFound(SESSION_MESSAGES.notFound);
    return { success: true as const };
  });

  app.get('/sessions/:id/items', {
    ...serializeTrusted,
    schema: { params: SessionParams, querystring: SessionItemsQuery, response: { 200: SessionItemsPage } },
  }, async (req) => {
    await requireSession(req.user.id, req.params.id);
    return findSessionItemsPage(ctx.db, req.user.id, req.params.id, req.query.after ?? 0, req.query.limit);
  });

  app.post('/sessions/:id/items/lookup', {
    ...serializeTrusted,
    schema: { params: SessionParams, body: SessionItemsLookupBody, response: { 200: LookupRequestsResponse } },
  }, async (req) => {
    await requireSession(req.user.id, req.params.id);
    return { items: await findSessionItems(ctx.db, ctx.blobs, req.user.id, req.params.id, req.body.ids) };
  });

  app.get('/sessions/:id/items/:itemId', {
    ...serializeTrusted,
    schema: { params: SessionItemParams, response: { 200: CapturedItem } },
  }, async (req) => {
    await requireSession(req.user.id, req.params.id);
    const item = await findSessionItem(ctx.db, ctx.blobs, req.user.id, req.params.id, req.params.itemId);
    if (!item) throw notFound(REQUEST_NOT_FOUND);
    return item;
  });
}
