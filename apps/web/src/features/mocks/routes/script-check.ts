import type { MockData } from '@spyglass/protocol';
import { errorMessage } from '../../../lib/api';
import { simulateMockedRoute } from '../mocks.api';
import { sampleUrlFor } from './route-draft';

/**
 * Spec 002 §5: a dynamic script must pass a syntax and execution check before it is saved. The
 * check runs the draft's handler once in the server's sandbox (the simulate call with the
 * draft's mock data, nothing of the route saved) on a request its pattern matches. Answers the
 * failure's message, or null when the handler ran.
 *
 * A route not created yet has no simulate call: its script is checked once it exists.
 */
export async function checkDynamicScript(routeId: string | null, mockData: MockData): Promise<string | null> {
  if (routeId === null) return null;
  try {
    const result = await simulateMockedRoute(routeId, {
      request: { url: sampleUrlFor(mockData.mockedUrl), method: mockData.method, headers: {}, body: null },
      mockData: { ...mockData, consoleLog: [] },
    });
    return result.error ?? null;
  } catch (error) {
    return errorMessage(error, 'The script could not be checked');
  }
}
