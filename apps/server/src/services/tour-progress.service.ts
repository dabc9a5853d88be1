import type { FastifyBaseLogger } from 'fastify';
import { TOUR_EVENTS, type TourEvent, type WelcomeTour } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { listTours, saveTourStep } from './welcome-tour.service';

/** What ingest tells about the items of one commit: only their kind and whether a mock answered them. */
export interface CommittedItem {
  columns: { type: string; is_mocked?: number };
}

/** Accounts whose pending steps are remembered; beyond it the least recently used are forgotten. */
const MAX_CACHED_ACCOUNTS = 10_000;

const EVENT_OF_STEP = new Map(Object.entries(TOUR_EVENTS).map(([event, { tourId, stepId }]) => [`${tourId}\n${stepId}`, event as TourEvent]));

/** The events whose steps are still pending in these tours. */
export function pendingEvents(tours: WelcomeTour[]): Set<TourEvent> {
  const pending = new Set<TourEvent>();
  for (const tour of tours) {
    for (const step of tour.steps) {
      const event = EVENT_OF_STEP.get(`${tour.id}\n${step.id}`);
      if (event && step.status === 'pending') pending.add(event);
    }
  }
  return pending;
}

/** The tour events a commit's items stand for. */
export function eventsOfItems(items: readonly CommittedItem[]): TourEvent[] {
  let log = false;
  let screenshot = false;
  let network = false;
  let mocked = false;
  for (const { columns } of items) {
    if (columns.type === 'log') log = true;
    else if (columns.type === 'screenshot') screenshot = true;
    else if (columns.type === 'network') {
      network = true;
      if (columns.is_mocked === 1) mocked = true;
    }
  }
  const events: TourEvent[] = [];
  if (log) events.push('logReceived');
  if (screenshot) events.push('screenshotReceived');
  if (network) events.push('networkRequestReceived');
  if (mocked) events.push('mockedRequestReceived');
  return events;
}

/**
 * Completes welcome-tour steps when the server sees the user do the thing (spec 000 §3): items
 * from a device, the debug window opened, a mock enabled. Ingest calls it on every commit, so the
 * check is a map lookup per account while its steps are known: once an account's steps are
 * done, nothing is read or written for it again. Steps are saved one account at a time, in order,
 * so two events of one commit never overwrite each other.
 */
export class TourProgress {
  /** Per account, the tour events still pending; absent until read. */
  private readonly pending = new Map<string, Set<TourEvent>>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly db: Db, private readonly log: FastifyBaseLogger, private readonly now: () => number) {}

  /** Items of a device were committed (ingest's hot path: must stay cheap and never throw). */
  itemsCommitted(userId: string, items: readonly CommittedItem[]): void {
    const pending = this.pending.get(userId);
    if (pending && pending.size === 0) return;
    for (const event of eventsOfItems(items)) this.record(userId, event);
  }

  /** The user did what completes `event`'s step. */
  record(userId: string, event: TourEvent): void {
    const pending = this.pending.get(userId);
    if (pending && !pending.has(event)) return;
    const previous = this.queues.get(userId) ?? Promise.resolve();
    const next = previous.then(() => this.complete(userId, event)).catch((err: unknown) => {
      this.log.error({ err }, 'saving a welcome-tour step failed');
    });
    this.queues.set(userId, next);
    void next.finally(() => {
      if (this.queues.get(userId) === next) this.queues.delete(userId);
    });
  }

  /**
   * The account's tours were saved by the user (a toggle, a page event): what is pending is read
   * again at the next event, so a step set back to pending completes again.
   */
  toursChanged(userId: string): void {
    this.pending.delete(userId);
  }

  /** Resolves once every step recorded so far is saved (tests). */
  async settled(userId: string): Promise<void> {
    while (this.queues.has(userId)) await this.queues.get(userId);
  }

  private async complete(userId: string, event: TourEvent): Promise<void> {
    let pending = this.pending.get(userId);
    if (!pending) {
      pending = pendingEvents(await listTours(this.db, userId));
      this.remember(userId, pending);
    }
    if (!pending.has(event)) return;
    const { tourId, stepId } = TOUR_EVENTS[event];
    await saveTourStep(this.db, userId, tourId, stepId, { id: stepId, status: 'completed', completedAt: new Date(this.now()).toISOString() });
    pending.delete(event);
  }

  private remember(userId: string, pending: Set<TourEvent>): void {
    this.pending.delete(userId);
    this.pending.set(userId, pending);
    if (this.pending.size > MAX_CACHED_ACCOUNTS) this.pending.delete(this.pending.keys().next().value!);
  }
}
