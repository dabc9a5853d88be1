import { compileUrlPattern, MockData, type MockedRoute } from '@spyglass/protocol';

/** What the editor edits of a route: everything the update call sends (spec 002 §7). */
export interface RouteDraft {
  isEnabled: boolean;
  tags: string[];
  description: string;
  areLiveUpdatesEnabled: boolean;
  mockData: MockData;
}

export const draftOf = (route: MockedRoute): RouteDraft => ({
  isEnabled: route.isEnabled,
  tags: [...route.tags],
  description: route.description,
  areLiveUpdatesEnabled: route.areLiveUpdatesEnabled,
  mockData: route.mockData,
});

/** The draft as sent: the console log is the server's to keep. */
export const sentMockData = (draft: RouteDraft): MockData => ({ ...draft.mockData, isEnabled: draft.isEnabled, consoleLog: [] });

export function sameDraft(a: RouteDraft, b: RouteDraft): boolean {
  return JSON.stringify(sentMockData(a)) === JSON.stringify(sentMockData(b))
    && a.isEnabled === b.isEnabled && a.description === b.description
    && a.areLiveUpdatesEnabled === b.areLiveUpdatesEnabled && a.tags.join('\n') === b.tags.join('\n');
}

/** A new route (spec 002 §4): added at the top, disabled, a static 200 GET until edited. */
export function newRoute(deviceId: string, localId: string, now = new Date()): MockedRoute & { isUnsaved: true } {
  const at = now.toISOString();
  return {
    id: localId, deviceId, isEnabled: false, tags: [], description: '', areLiveUpdatesEnabled: false,
    createdAt: at, updatedAt: at, isUnsaved: true,
    mockData: MockData.parse({ mockedUrl: '', statusCode: 200, headers: [{ key: 'Content-Type', value: 'application/json' }] }),
  };
}

/**
 * A request URL the route's pattern matches, for the simulator's starting definition and the
 * script check: each `*` becomes a sample value, a pattern without host gets one.
 */
export function sampleUrlFor(pattern: string): string {
  if (!compileUrlPattern(pattern).ok) return 'https://api.example.com/';
  let url = pattern.trim().replace(/\\\?/g, '?');
  if (url.startsWith('//')) url = `https:${url}`;
  else if (url.startsWith('/')) url = `https://api.example.com${url}`;
  else if (!/^[a-z*]+:\/\//i.test(url)) url = `https://${url}`;
  url = url.replace(/^\*:\/\//, 'https://');
  const hostStart = url.indexOf('//') + 2;
  const rest = url.slice(hostStart).search(/[/?]/);
  const hostEnd = rest === -1 ? url.length : hostStart + rest;
  return url.slice(0, hostEnd).replace(/\*/g, 'api') + url.slice(hostEnd).replace(/\*/g, '1');
}
