import type { MockedRoute } from '@spyglass/protocol';

/** A route of the list: stored, or added and not saved yet (spec 002 §4: added at the top). */
export type ListedRoute = MockedRoute & { isUnsaved?: boolean };

export const ROUTE_SORTS = [
  { id: 'createdAt', label: 'Created' },
  { id: 'isEnabled', label: 'Enabled' },
  { id: 'method', label: 'Method' },
  { id: 'mockedUrl', label: 'URL' },
] as const;
export type RouteSortId = (typeof ROUTE_SORTS)[number]['id'];
export interface RouteSort { by: RouteSortId; descending: boolean }

/** Spec 002 §2, §9: createdAt descending. */
export const DEFAULT_ROUTE_SORT: RouteSort = { by: 'createdAt', descending: true };

const compareBy: Record<RouteSortId, (a: MockedRoute, b: MockedRoute) => number> = {
  createdAt: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
  isEnabled: (a, b) => Number(a.isEnabled) - Number(b.isEnabled),
  method: (a, b) => a.mockData.method.localeCompare(b.mockData.method),
  mockedUrl: (a, b) => a.mockData.mockedUrl.localeCompare(b.mockData.mockedUrl),
};

/** The shown order; ties fall back to the newest first, and unsaved routes stay on top. */
export function sortRoutes(routes: readonly ListedRoute[], sort: RouteSort): ListedRoute[] {
  const direction = sort.descending ? -1 : 1;
  const newestFirst = (a: MockedRoute, b: MockedRoute) => compareBy.createdAt(b, a);
  return [...routes].sort((a, b) =>
    Number(Boolean(b.isUnsaved)) - Number(Boolean(a.isUnsaved))
    || direction * compareBy[sort.by](a, b)
    || newestFirst(a, b));
}

/**
 * Spec 002 §5: free text matches URL, method, tags, description, header keys and values, body,
 * status code, code, mode, enabled flag and created date, case-insensitive. The other filter
 * fields are written `method:GET` (exact), `url:...` and `tag:...`.
 */
export function filterRoutes(routes: readonly ListedRoute[], query: string): ListedRoute[] {
  const terms = parseRouteQuery(query);
  if (terms.length === 0) return [...routes];
  return routes.filter((route) => {
    const text = routeSearchText(route);
    return terms.every((term) => matchesTerm(route, text, term));
  });
}

type Term = { field: 'text' | 'method' | 'url' | 'tag'; value: string };

export function parseRouteQuery(query: string): Term[] {
  return query.trim().split(/\s+/).filter(Boolean).map((token) => {
    const match = /^(method|url|tag):(.+)$/i.exec(token);
    if (match) return { field: match[1]!.toLowerCase() as Term['field'], value: match[2]!.toLowerCase() };
    return { field: 'text', value: token.toLowerCase() };
  });
}

function matchesTerm(route: MockedRoute, text: string, term: Term): boolean {
  switch (term.field) {
    case 'method': return route.mockData.method.toLowerCase() === term.value;
    case 'url': return route.mockData.mockedUrl.toLowerCase().includes(term.value);
    case 'tag': return route.tags.some((tag) => tag.toLowerCase().includes(term.value));
    case 'text': return text.includes(term.value);
  }
}

export function routeSearchText(route: MockedRoute): string {
  const { mockData } = route;
  return [
    mockData.mockedUrl, mockData.method, ...route.tags, route.description,
    ...mockData.headers.flatMap((h) => [h.key, h.value]), mockData.body, String(mockData.statusCode), mockData.code,
    mockData.mode, route.isEnabled ? 'enabled' : 'disabled', route.createdAt,
  ].join('\n').toLowerCase();
}
