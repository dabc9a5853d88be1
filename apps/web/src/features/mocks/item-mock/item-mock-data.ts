import { INTERCEPTED_HEADER, MOCK_LIMITS, type ItemMockData, type NetworkItem } from '@spyglass/protocol';
import { isStatusInRange, mockedUrlForInput, mockedUrlToSend } from '../mock-rules';

/** What the item mock editor edits (spec 001 §3 MockData), the URL as the user types it. */
export interface ItemMockDraft {
  isMocked: boolean;
  statusCode: number;
  /** null: no delay entered. */
  delayMs: number | null;
  /** The mocked URL as typed; empty falls back to the item's URL when sent. */
  mockedUrl: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Headers of the captured exchange that describe its transport, not its content: a mocked answer
 * has its own length and an unencoded body, so carrying them over would break the app's client.
 */
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']);

/** The captured response headers a mock may give again. */
export function mockableHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !TRANSPORT_HEADERS.has(key.toLowerCase())));
}

/** The captured answer: what Revert goes back to and what a first mock starts from. */
export const originalBody = (item: NetworkItem): string => item.details.response?.body ?? '';

/**
 * Spec 001 §4, §5: the Spyglass-Intercepted header holding the item's id is always there (added
 * when absent), whatever case its name was written in.
 */
export function withInterceptedHeader(headers: Record<string, string>, itemId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== INTERCEPTED_HEADER.toLowerCase()) out[key] = value;
  }
  out[INTERCEPTED_HEADER] = itemId;
  return out;
}

/** The editor's start: the mock set before, else the captured answer. */
export function initialDraft(item: NetworkItem): ItemMockDraft {
  const saved = item.mockData;
  if (saved) {
    return {
      isMocked: item.isMocked || saved.isMocked,
      statusCode: saved.statusCode,
      delayMs: saved.delayMs ?? null,
      mockedUrl: mockedUrlForInput(saved.mockedUrl),
      headers: withInterceptedHeader(saved.headers, item.id),
      body: saved.body,
    };
  }
  const status = item.details.response?.statusCode;
  return {
    isMocked: item.isMocked,
    statusCode: status !== undefined && isStatusInRange(status) ? status : MOCK_LIMITS.defaultStatus,
    delayMs: null,
    mockedUrl: item.details.request.url,
    headers: withInterceptedHeader(mockableHeaders(item.details.response?.headers ?? {}), item.id),
    body: originalBody(item),
  };
}

/** The PUT body (spec 001 §3, §5): the URL escaped or the original, the intercepted header added. */
export function itemMockToSend(item: NetworkItem, draft: ItemMockDraft): ItemMockData {
  return {
    isMocked: draft.isMocked,
    ...(item.metaData ? { metaData: item.metaData } : {}),
    statusCode: draft.statusCode,
    method: item.details.request.method,
    headers: withInterceptedHeader(draft.headers, item.id),
    body: draft.body,
    url: item.details.request.url,
    mockedUrl: mockedUrlToSend(draft.mockedUrl, item.details.request.url),
    // 0 disables the delay, as does no delay.
    delayMs: draft.delayMs,
  };
}

/**
 * Spec 001 §4, §5: a body whose Content-Type is JSON is taken only when it parses; otherwise the
 * edit is not sent and the error is only logged.
 */
export function acceptsBody(body: string, headers: Record<string, string>): boolean {
  const contentType = Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1] ?? '';
  if (!contentType.toLowerCase().includes('json') || body.trim() === '') return true;
  try {
    JSON.parse(body);
    return true;
  } catch (error) {
    console.warn('Mock body ignored: it is not valid JSON', error instanceof Error ? error.message : error);
    return false;
  }
}
