import { compileUrlPattern, isHttpUrl, MOCK_LIMITS, MOCK_MESSAGES, type MockData } from '@spyglass/protocol';

/**
 * Input rules of the mock editors (spec 002 §5, spec 001 §5), kept out of the components so that
 * they are tested alone.
 */

/** Status code input: a non-numeric entry falls back to 200; a number keeps its integer part. */
export function parseStatusInput(raw: string): number {
  const value = Number.parseInt(raw.trim(), 10);
  return Number.isNaN(value) ? MOCK_LIMITS.defaultStatus : value;
}

export const isStatusInRange = (status: number) =>
  Number.isInteger(status) && status >= MOCK_LIMITS.statusMin && status <= MOCK_LIMITS.statusMax;

/**
 * Delay input of an item mock: an integer; non-numeric becomes empty (null), negative becomes 0.
 * 0 disables the delay.
 */
export function parseDelayInput(raw: string): number | null {
  const trimmed = raw.trim();
  if (!/^-?\d+(\.\d*)?$/.test(trimmed)) return null;
  return Math.max(0, Math.trunc(Number(trimmed)));
}

/**
 * The mocked URL of an item mock as sent: empty falls back to the item's own URL, and '?' is
 * escaped, because the device reads the URL as a pattern in which '?' would be a special character.
 */
export function mockedUrlToSend(mockedUrl: string, originalUrl: string): string {
  const url = mockedUrl.trim() === '' ? originalUrl : mockedUrl;
  return url.replace(/(?<!\\)\?/g, '\\?');
}

/** The editable form of a sent mocked URL ('\?' shown as '?'). */
export const mockedUrlForInput = (sent: string) => sent.replace(/\\\?/g, '?');

/**
 * Adds a tag (spec 002 §5): blank tags are ignored, at most 10, and a tag already there is not
 * added twice.
 */
export function addTag(tags: readonly string[], raw: string): readonly string[] {
  const tag = raw.trim();
  if (tag === '' || tags.length >= MOCK_LIMITS.maxTags || tags.includes(tag)) return tags;
  return [...tags, tag.slice(0, MOCK_LIMITS.maxTagLength)];
}

export const canAddTag = (tags: readonly string[]) => tags.length < MOCK_LIMITS.maxTags;

export type RouteField = 'mockedUrl' | 'statusCode' | 'code' | 'mapRemoteUrl';
export type RouteErrors = Partial<Record<RouteField, string>>;

/**
 * The checks before a mocked route is saved (spec 002 §5, §8); all must pass, otherwise nothing
 * is saved. Per field, so that each message shows under its input; the server applies the same
 * rules (`validateMockData` of the protocol). The dynamic script's run check comes after these.
 */
export function validateMockData(mockData: Pick<MockData, 'mode' | 'responseMode' | 'mockedUrl' | 'statusCode' | 'code' | 'mapRemoteUrl'>): RouteErrors {
  const errors: RouteErrors = {};
  if (mockData.mockedUrl.trim() === '') errors.mockedUrl = MOCK_MESSAGES.urlRequired;
  else {
    const pattern = compileUrlPattern(mockData.mockedUrl);
    if (!pattern.ok) errors.mockedUrl = pattern.error;
  }
  if (mockData.mode === 'mapRemote') {
    if (!isHttpUrl(mockData.mapRemoteUrl)) errors.mapRemoteUrl = MOCK_MESSAGES.mapRemoteUrlRequired;
    return errors;
  }
  if (!Number.isFinite(mockData.statusCode)) errors.statusCode = MOCK_MESSAGES.statusRequired;
  else if (!isStatusInRange(mockData.statusCode)) errors.statusCode = MOCK_MESSAGES.statusRange;
  if (mockData.responseMode === 'dynamic' && mockData.code.trim() === '') errors.code = MOCK_MESSAGES.codeRequired;
  return errors;
}

/** The first lines of an error's stack, shown under the code editor (spec 002 §5). */
export function errorExcerpt(error: string, maxLines = 4): string {
  return error.split('\n').slice(0, maxLines).join('\n');
}
