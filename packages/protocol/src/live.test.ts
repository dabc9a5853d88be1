import { describe, expect, it } from 'vitest';
import { logItem, networkItem } from './item-fixtures';
import { ViewerOutbound } from './live';

describe('viewer live messages', () => {
  // The list's items carry whether bodies exist; export and details decide from it whether to load
  // the full item, so a live item must keep the flags a history page has.
  it('keeps the compact body flags of live items, batched or single', () => {
    const item = { ...networkItem(), hasRequestBody: false, hasResponseBody: true };
    const batch = ViewerOutbound.parse({ type: 'new_requests', deviceId: 'd1', requests: [item, logItem()] });
    expect(batch).toMatchObject({ requests: [{ id: item.id, hasRequestBody: false, hasResponseBody: true }, { type: 'log' }] });
    const single = ViewerOutbound.parse({ type: 'new_request', deviceId: 'd1', request: item });
    expect(single).toMatchObject({ request: { hasResponseBody: true } });
  });

  it('refuses an item without an id', () => {
    const { id: _id, ...noId } = networkItem();
    expect(ViewerOutbound.safeParse({ type: 'new_requests', deviceId: 'd1', requests: [noId] }).success).toBe(false);
  });
});
