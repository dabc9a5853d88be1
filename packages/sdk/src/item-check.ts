import { ITEM_LIMITS, ITEM_TEXT_LIMITS as T } from '@spyglass/protocol/device';
import type { DeviceItem, LogDetails, NetworkDetails } from '@spyglass/protocol';

/**
 * The rules of the protocol's `DeviceItem` schema that an item built by this SDK can break: the
 * bounds of what the app or the captured traffic puts in it. The SDK builds the structure
 * itself (typed by the schema), so only these are checked on the device; one item breaking
 * them would cost the server the whole batch (`bad_items`). `item-check.test.ts` holds this to
 * the schema. Answers the first broken rule, or undefined.
 */
export function checkItem(item: DeviceItem): string | undefined {
  // Module-level helpers and one array: this runs for every item an app logs.
  const problems: string[] = [];
  text(problems, 'level', item.level, T.level);
  if (item.tags) {
    if (item.tags.length > ITEM_LIMITS.maxTags) problems.push(`tags: at most ${ITEM_LIMITS.maxTags}`);
    for (let i = 0; i < item.tags.length; i++) text(problems, `tags.${i}`, item.tags[i], T.tag);
  }
  switch (item.type) {
    case 'log':
      checkLog(item.details, problems);
      break;
    case 'event':
      text(problems, 'details.name', item.details.name, T.name);
      text(problems, 'details.category', item.details.category, T.category);
      break;
    case 'firebaseAnalytics':
      text(problems, 'details.name', item.details.name, T.name);
      text(problems, 'details.category', item.details.category, T.category);
      text(problems, 'details.level', item.details.level, T.level);
      break;
    case 'screenshot':
      text(problems, 'details.name', item.details.name, T.name);
      text(problems, 'details.image', item.details.image, T.encodedBody);
      text(problems, 'details.mimeType', item.details.mimeType, T.mimeType);
      break;
    case 'network':
      checkNetwork(item.details, problems);
      break;
  }
  return problems.length ? problems.join('; ') : undefined;
}

function text(problems: string[], path: string, value: unknown, max: number): void {
  if (typeof value === 'string' && value.length > max) problems.push(`${path}: at most ${max} characters`);
}

function integer(problems: string[], path: string, value: unknown): void {
  if (value !== undefined && !Number.isInteger(value)) problems.push(`${path}: an integer`);
}

function checkLog(d: LogDetails, problems: string[]): void {
  text(problems, 'details.message', d.message, ITEM_LIMITS.maxMessageLength);
  text(problems, 'details.level', d.level, T.level);
  text(problems, 'details.file', d.file, T.fileName);
  integer(problems, 'details.line', d.line);
  text(problems, 'details.name', d.name, T.name);
  text(problems, 'details.category', d.category, T.category);
  text(problems, 'details.subsystem', d.subsystem, T.category);
  if (!d.stackTrace) return;
  if (d.stackTrace.length > T.stackFrames) problems.push(`details.stackTrace: at most ${T.stackFrames} frames`);
  d.stackTrace.forEach((frame, i) => {
    text(problems, `details.stackTrace.${i}.className`, frame.className, T.name);
    text(problems, `details.stackTrace.${i}.methodName`, frame.methodName, T.name);
    text(problems, `details.stackTrace.${i}.fileName`, frame.fileName, T.fileName);
    integer(problems, `details.stackTrace.${i}.lineNumber`, frame.lineNumber);
  });
}

function checkHeaders(problems: string[], path: string, map: Record<string, string> | undefined): void {
  if (!map) return;
  const names = Object.keys(map);
  if (names.length > ITEM_LIMITS.maxHeaders) problems.push(`${path}: at most ${ITEM_LIMITS.maxHeaders} headers`);
  for (const name of names) {
    text(problems, `${path} name`, name, T.headerName);
    text(problems, `${path}.${name}`, map[name], ITEM_LIMITS.maxHeaderValue);
  }
}

function checkNetwork(d: NetworkDetails, problems: string[]): void {
  text(problems, 'details.request.method', d.request.method, T.method);
  text(problems, 'details.request.url', d.request.url, ITEM_LIMITS.maxUrlLength);
  checkHeaders(problems, 'details.request.headers', d.request.headers);
  text(problems, 'details.request.body', d.request.body, T.encodedBody);
  text(problems, 'details.request.httpVersion', d.request.httpVersion, T.httpVersion);
  if (d.response) {
    text(problems, 'details.response.statusText', d.response.statusText, T.statusText);
    checkHeaders(problems, 'details.response.headers', d.response.headers);
    text(problems, 'details.response.body', d.response.body, T.encodedBody);
    text(problems, 'details.response.httpVersion', d.response.httpVersion, T.httpVersion);
  }
  text(problems, 'details.error', d.error, T.error);
  text(problems, 'details.mockedBy.mappedUrl', d.mockedBy?.mappedUrl, ITEM_LIMITS.maxUrlLength);
}
