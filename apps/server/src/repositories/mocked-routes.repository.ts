import type { Selectable } from 'kysely';
import { MOCK_LIMITS, MockData, type ConsoleEntry, type MockedRoute, type MockedRoutesQuery } from '@spyglass/protocol';
import { isTrue, type Db } from '../db/database';
import type { MockedRoutesTable } from '../db/schema';
import { parseJson } from '../lib/json';

export type MockedRouteRow = Selectable<MockedRoutesTable>;


/** Rows become protocol routes here and nowhere else. */
export function toMockedRoute(row: MockedRouteRow): MockedRoute {
  const parsed = MockData.safeParse(parseJson(row.mock_data));
  const isEnabled = isTrue(row.is_enabled);
  const mockData = parsed.success ? parsed.data : MockData.parse({ mockedUrl: row.mocked_url, method: row.method, statusCode: 200 });
  const tags = parseJson(row.tags);
  return {
    id: row.id,
    deviceId: row.device_id,
    isEnabled,
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    description: row.description,
    areLiveUpdatesEnabled: isTrue(row.are_live_updates_enabled),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
    mockData: { ...mockData, isEnabled },
  };
}

const SORT_COLUMNS = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  isEnabled: 'is_enabled',
  method: 'method',
  mockedUrl: 'mocked_url',
} as const satisfies Record<MockedRoutesQuery['sort'], keyof MockedRoutesTable>;

/** One device's routes in the asked order (ties: newest first). */
export async function findRoutesForDevice(db: Db, userId: string, query: MockedRoutesQuery): Promise<MockedRoute[]> {
  const direction = query.order === 'ASC' ? 'asc' : 'desc';
  const rows = await db.selectFrom('mocked_routes').selectAll()
    .where('user_id', '=', userId).where('device_id', '=', query.deviceId)
    .orderBy(SORT_COLUMNS[query.sort], direction).orderBy('created_at', 'desc').orderBy('id', 'desc')
    .execute();
  return rows.map(toMockedRoute);
}

/** Every route of the account, newest first (GET /v1/mock-apis). */
export async function findRoutesForUser(db: Db, userId: string): Promise<MockedRoute[]> {
  const rows = await db.selectFrom('mocked_routes').selectAll().where('user_id', '=', userId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toMockedRoute);
}

export async function findEnabledRoutesForDevice(db: Db, userId: string, deviceId: string): Promise<MockedRoute[]> {
  const rows = await db.selectFrom('mocked_routes').selectAll()
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where('is_enabled', '=', 1)
    .orderBy('created_at', 'desc').execute();
  return rows.map(toMockedRoute);
}

export async function findRoute(db: Db, userId: string, id: string): Promise<MockedRoute | undefined> {
  const row = await db.selectFrom('mocked_routes').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && toMockedRoute(row);
}

export async function countRoutesForDevice(db: Db, userId: string, deviceId: string): Promise<number> {
  const row = await db.selectFrom('mocked_routes').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).where('device_id', '=', deviceId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

function columnsOf(route: Omit<MockedRoute, 'id' | 'deviceId' | 'createdAt' | 'updatedAt'>) {
  return {
    is_enabled: route.isEnabled ? 1 : 0,
    tags: JSON.stringify(route.tags),
    description: route.description,
    are_live_updates_enabled: route.areLiveUpdatesEnabled ? 1 : 0,
    method: route.mockData.method,
    mocked_url: route.mockData.mockedUrl,
    mock_data: JSON.stringify({ ...route.mockData, isEnabled: route.isEnabled }),
  };
}

export async function insertRoute(db: Db, userId: string, route: MockedRoute): Promise<void> {
  await db.insertInto('mocked_routes').values({
    id: route.id,
    user_id: userId,
    device_id: route.deviceId,
    ...columnsOf(route),
    created_at: Date.parse(route.createdAt),
    updated_at: Date.parse(route.updatedAt),
  }).execute();
}

/** Stores the whole route; false when it is not the user's (or no longer exists). */
export async function updateRoute(db: Db, userId: string, route: MockedRoute): Promise<boolean> {
  const result = await db.updateTable('mocked_routes')
    .set({ ...columnsOf(route), updated_at: Date.parse(route.updatedAt) })
    .where('user_id', '=', userId).where('id', '=', route.id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Adds what a device's handler logged to the console log of its route, keeping the last
 * `MOCK_LIMITS.maxConsoleEntries`. Answers the whole log, or undefined when the route is not
 * this device's (deleted meanwhile, or an id the device made up).
 */
export async function appendRouteConsole(db: Db, userId: string, deviceId: string, routeId: string, entries: readonly ConsoleEntry[]): Promise<ConsoleEntry[] | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('mocked_routes').selectAll()
      .where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', '=', routeId).executeTakeFirst();
    if (!row) return undefined;
    const { mockData } = toMockedRoute(row);
    const consoleLog = [...mockData.consoleLog, ...entries].slice(-MOCK_LIMITS.maxConsoleEntries);
    await trx.updateTable('mocked_routes').set({ mock_data: JSON.stringify({ ...mockData, consoleLog }) })
      .where('user_id', '=', userId).where('id', '=', routeId).execute();
    return consoleLog;
  });
}

export async function deleteRoute(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('mocked_routes').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
