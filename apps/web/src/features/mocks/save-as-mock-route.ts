import { MOCK_LIMITS, MOCK_MESSAGES, MOCK_METHODS, type CapturedItem, type MockMethod } from '@spyglass/protocol';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { mockableHeaders } from './item-mock/item-mock-data';
import { createMockedRoute } from './mocks.api';

const toastOptions = { duration: MOCK_LIMITS.toastMs };

/**
 * Save as Mock Route (spec 001 §5, spec 002 §4): a mocked route made from a captured request's
 * answer, disabled like every new route. Needs the full item (its response body); without
 * response data it only says 'No response data available'. Resolves whether a route was made.
 */
export async function saveItemAsMockRoute(deviceId: string, item: CapturedItem): Promise<boolean> {
  const response = item.type === 'network' ? item.details.response : undefined;
  if (item.type !== 'network' || !response) {
    toast.error(MOCK_MESSAGES.noResponseData, toastOptions);
    return false;
  }
  const { request } = item.details;
  const method = request.method.toUpperCase();
  const status = response.statusCode;
  try {
    await createMockedRoute({
      deviceId,
      isEnabled: false,
      description: `Saved from request #${item.num}`,
      mockData: {
        mode: 'default',
        responseMode: 'static',
        method: (MOCK_METHODS as readonly string[]).includes(method) ? method as MockMethod : 'GET',
        mockedUrl: request.url,
        statusCode: status >= MOCK_LIMITS.statusMin && status <= MOCK_LIMITS.statusMax ? status : MOCK_LIMITS.defaultStatus,
        headers: Object.entries(mockableHeaders(response.headers)).map(([key, value]) => ({ key, value })),
        // A binary answer is kept base64-encoded by the SDK; a route's body is text.
        body: response.bodyEncoding === 'base64' ? '' : (response.body ?? ''),
      },
    });
    toast.success(MOCK_MESSAGES.savedFromRequest, toastOptions);
    return true;
  } catch (error) {
    toast.error(errorMessage(error, 'Failed to save mock route'));
    return false;
  }
}
