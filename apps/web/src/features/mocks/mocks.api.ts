import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  CompactItemSchema, MockedRoute, MockedRouteList, PublishMockedRoutesResponse, SimulateMockedRouteResponse, SuccessBody,
  type CreateMockedRouteInput, type ItemMockData, type SimulateMockedRouteInput, type UpdateMockedRouteInput,
} from '@spyglass/protocol';
import { api } from '../../lib/api';
import { useLiveMessage } from '../../lib/live';

/**
 * The mock calls of spec 002 §7 over the one API client. Failure texts are ours: the spec says
 * each call has its own without giving them.
 */

export const mockedRoutesKey = (deviceId: string) => ['mocked-routes', deviceId] as const;

const routePath = (id: string, rest = '') => `/mocked-routes/${encodeURIComponent(id)}${rest}`;

/** GET /mocked-routes?deviceId&sort=createdAt&order=DESC: one device's routes. */
export function useMockedRoutes(deviceId: string) {
  return useQuery({
    queryKey: mockedRoutesKey(deviceId),
    queryFn: () => api.get('/mocked-routes', MockedRouteList, {
      query: { deviceId, sort: 'createdAt', order: 'DESC' },
      errorMessage: 'Failed to load mocked routes',
    }),
    // Routes are also created from the inspector (Save as Mock Route): always show the stored set.
    refetchOnMount: 'always',
  });
}

/**
 * Keeps the consoles of one device's routes current while they are shown: their dynamic
 * handlers log on the device, and the server announces each route's new console log live.
 */
export function useRouteConsoleSync(deviceId: string): void {
  const queryClient = useQueryClient();
  useLiveMessage('route_console', (message) => {
    if (message.deviceId !== deviceId) return;
    queryClient.setQueryData<MockedRoute[]>(mockedRoutesKey(deviceId), (routes) => routes?.map((route) =>
      route.id === message.routeId ? { ...route, mockData: { ...route.mockData, consoleLog: message.consoleLog } } : route));
  });
}

export const createMockedRoute = (body: CreateMockedRouteInput) =>
  api.post('/mocked-routes', body, MockedRoute, { errorMessage: 'Failed to create mocked route' });

export const updateMockedRoute = (id: string, body: UpdateMockedRouteInput) =>
  api.put(routePath(id), body, MockedRoute, { errorMessage: 'Failed to update mocked route' });

export const deleteMockedRoute = (id: string) =>
  api.delete(routePath(id), SuccessBody, { errorMessage: 'Failed to delete mocked route' });

export const publishMockedRoutes = (id: string) =>
  api.post(routePath(id, '/publish'), {}, PublishMockedRoutesResponse, { errorMessage: 'Failed to publish mocked routes' });

export const simulateMockedRoute = (id: string, body: SimulateMockedRouteInput) =>
  api.post(routePath(id, '/simulate'), body, SimulateMockedRouteResponse, { errorMessage: 'Failed to simulate mocked route' });

/** PUT /devices/{id}/requests/{requestId}/mock: the item mock of the details panel (spec 001 §7). */
export const putItemMock = (deviceId: string, requestId: string, mockData: ItemMockData) =>
  api.put(`/devices/${encodeURIComponent(deviceId)}/requests/${encodeURIComponent(requestId)}/mock`, mockData, CompactItemSchema, {
    errorMessage: 'Failed to update mock',
  });

/** Keeps the cached list in step with a route the server answered with. */
export function storeRoute(queryClient: QueryClient, route: MockedRoute): void {
  queryClient.setQueryData<MockedRoute[]>(mockedRoutesKey(route.deviceId), (routes) => {
    if (!routes) return routes;
    const index = routes.findIndex((r) => r.id === route.id);
    return index === -1 ? [route, ...routes] : routes.map((r, i) => (i === index ? route : r));
  });
}

export function forgetRoute(queryClient: QueryClient, deviceId: string, id: string): void {
  queryClient.setQueryData<MockedRoute[]>(mockedRoutesKey(deviceId), (routes) => routes?.filter((r) => r.id !== id));
}
