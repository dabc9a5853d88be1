import type { Device } from '@spyglass/protocol';
import type { AppContext } from '../context';
import { badRequest, tooManyRequests } from '../errors';
import { createSession, sessionTotals, type SessionRow } from '../repositories/sessions.repository';

export interface SessionLimits {
  /** Sessions one account may keep. */
  maxPerAccount: number;
  /** Items one account may keep in all its sessions. */
  maxItemsPerAccount: number;
  /** Saves in progress on this node at once (each may hold a body of up to ~10 MB). */
  maxConcurrentSaves: number;
}

export const SAVE_IN_PROGRESS = 'A session is already being saved, please wait until it is done';
export const SAVES_BUSY = 'Too many sessions are being saved right now, please try again in a moment';

/**
 * Admits session saves before their body is read: one at a time per account and a few per node,
 * so that concurrent multi-megabyte requests cannot pile up in memory (four 24.6 MB bodies took
 * the server from 156 to 704 MB before).
 */
export class SessionSaveGate {
  private readonly accounts = new Set<string>();
  private readonly admitted = new WeakMap<object, string>();

  constructor(private readonly maxConcurrent: number) {}

  /** Admits `request` for `userId` or throws 429. */
  enter(request: object, userId: string): void {
    if (this.accounts.has(userId)) throw tooManyRequests(SAVE_IN_PROGRESS);
    if (this.accounts.size >= this.maxConcurrent) throw tooManyRequests(SAVES_BUSY);
    this.accounts.add(userId);
    this.admitted.set(request, userId);
  }

  /** Ends `request`'s admission, if it had one (idempotent). */
  leave(request: object): void {
    const userId = this.admitted.get(request);
    if (userId === undefined) return;
    this.admitted.delete(request);
    this.accounts.delete(userId);
  }
}

/**
 * Saves a session within the account's caps: a session's items are copied rows, so without a cap
 * a 1 MB request could add hundreds of megabytes to the database, and again and again.
 */
export async function saveSession(
  ctx: AppContext, input: { userId: string; device: Device; name: string; requestIds: string[] },
): Promise<SessionRow> {
  const { maxPerAccount, maxItemsPerAccount } = ctx.config.sessionLimits;
  const totals = await sessionTotals(ctx.db, input.userId);
  if (totals.sessions >= maxPerAccount) {
    throw badRequest(`An account may keep at most ${maxPerAccount} sessions: delete some to save new ones`);
  }
  const count = new Set(input.requestIds).size;
  if (totals.items + count > maxItemsPerAccount) {
    throw badRequest(`An account may keep at most ${maxItemsPerAccount} requests in its sessions (${totals.items} now): delete some sessions to save this one`);
  }
  return createSession(ctx.database, ctx.blobs, { ...input, now: ctx.now() });
}
