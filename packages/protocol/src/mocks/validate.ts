import { MOCK_MESSAGES, type MockData } from './mocked-routes';
import { compileUrlPattern, isHttpUrl } from './url-pattern';

/**
 * The save rules of a route that go beyond its shape (spec 002 §5): a mocked URL that is a valid
 * pattern, a code for dynamic mode, an absolute target for mapRemote. Answers the first broken
 * rule's message, or undefined. Running the code is the sandbox's part.
 */
export function validateMockData(data: Pick<MockData, 'mockedUrl' | 'mode' | 'responseMode' | 'code' | 'mapRemoteUrl'>): string | undefined {
  if (!data.mockedUrl.trim()) return MOCK_MESSAGES.urlRequired;
  const pattern = compileUrlPattern(data.mockedUrl);
  if (!pattern.ok) return pattern.error;
  if (data.mode === 'mapRemote') {
    if (!isHttpUrl(data.mapRemoteUrl)) return MOCK_MESSAGES.mapRemoteUrlRequired;
  } else if (data.responseMode === 'dynamic' && !data.code.trim()) {
    return MOCK_MESSAGES.codeRequired;
  }
  return undefined;
}
