import { AdminClient, AdminUserPatch, AdminUsersQuery, AdminUsersResponse, IdParams, SuccessBody } from '@spyglass/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../context';
import { isTrue } from '../../db/database';
import { forbidden } from '../../errors';
import { listAdminUsers, listClients, updateAdminUser } from '../../services/admin.service';

/**
 * `/v1/admin/*` (spec 000 §2.7, §7.5): the admin role is checked here for every route of the tree,
 * so an ordinary user gets 403 whatever the route. Admins are the verified accounts named by
 * ADMIN_EMAILS (services/admin.service.ts); no user-facing call sets the flag.
 */
export async function adminRoutes(app: App): Promise<void> {
  const { ctx } = app;
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (!isTrue(req.user.is_admin) || !isTrue(req.user.email_verified)) throw forbidden('Admins only');
  });

  app.get('/admin/users', { schema: { querystring: AdminUsersQuery, response: { 200: AdminUsersResponse } } }, async (req) =>
    listAdminUsers(ctx, req.query));

  app.get('/admin/clients', { schema: { response: { 200: z.array(AdminClient) } } }, async () => listClients(ctx));

  app.patch('/admin/users/:id', { schema: { params: IdParams, body: AdminUserPatch, response: { 200: SuccessBody } } }, async (req) => {
    await updateAdminUser(ctx, req.user.id, req.params.id, req.body);
    return { success: true as const };
  });
}
