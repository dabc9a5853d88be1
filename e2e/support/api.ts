import { CapturedItem, CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage, type CompactItem } from '@spyglass/protocol';
import type { RunningServer } from './server';

/** The headers of a call the signed-in web client makes. */
export const apiHeaders = (token: string) => ({ authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD });

/** What the server stored for a device, newest first, asked as the signed-in user (GET /v1/requests, every page). */
export async function storedItems(server: RunningServer, token: string, deviceId: string): Promise<CompactItem[]> {
  const items: CompactItem[] = [];
  for (let before: number | null | undefined; before !== null;) {
    const query = new URLSearchParams({ deviceId, limit: '5000', ...(before ? { before: String(before) } : {}) });
    const res = await fetch(`${server.url}/v1/requests?${query.toString()}`, { headers: apiHeaders(token) });
    if (res.status !== 200) throw new Error(`GET /v1/requests answered ${res.status}: ${await res.text()}`);
    const page = RequestsPage.parse(await res.json());
    items.push(...page.items);
    before = page.nextBefore;
  }
  return items;
}

/** One stored item whole, bodies included (GET /v1/requests/:id). */
export async function fullItem(server: RunningServer, token: string, id: string): Promise<CapturedItem> {
  const res = await fetch(`${server.url}/v1/requests/${id}`, { headers: apiHeaders(token) });
  if (res.status !== 200) throw new Error(`GET /v1/requests/${id} answered ${res.status}: ${await res.text()}`);
  return CapturedItem.parse(await res.json());
}
