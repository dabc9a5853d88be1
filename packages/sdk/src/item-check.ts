import { ITEM_LIMITS, ITEM_TEXT_LIMITS as T } from '@spyglass/protocol/device';
import type { DeviceItem, NetworkDetails } from '@spyglass/protocol';

/**
 * The rules of the protocol's `DeviceItem` schema that an item built by this SDK can break: the
 * bounds of what the app or the captured traffic puts in it. The SDK builds the structure
 * itself (typed by the schema), so only these are checked on the device; one item breaking
 * them would cost the server the whole batch (`bad_items`). `item-check.test.ts` holds this to
 * the schema. Answers the first broken rule, or undefined.
 */
export function checkItem(item: DeviceItem): string | undefined {
  const problems: string[] = [];
  const text = (path: string, value: unknown, max: number) => {
    if (typeof value === 'string' && value.length > max) problems.push(`${path}: at most ${max} characters`);
  };
  const integer = (path: string, value: unknown) => {
    if (value !== undefined && !Number.isInteger(value)) problems.push(`${path}: an integer`);
  };
  text('level', item.level, T.level);
  if (item.tags) {
    if (item.tags.length > ITEM_LIMITS.maxTags) problems.push(`tags: at most ${ITEM_LIMITS.maxTags}`);
    item.tags.forEach((tag, i) => text(`tags.${i}`, tag, T.tag));
  }
  switch (item.type) {
    case 'log':
      text('details.message', item.details.message, ITEM_LIMITS.maxMessageLength);
      text('details.level', item.details.level, T.level);
      text('details.file', item.details.file, T.fileName);
      integer('details.line', item.details.line);
      text('details.name', item.details.name, T.name);
      text('details.category', item.details.category, T.category);
      text('details.subsystem', item.details.subsystem, T.category);
      if (item.details.stackTrace) {
        if (item.details.stackTrace.length > T.stackFrames) problems.push(`details.stackTrace: at most ${T.stackFrames} frames`);
        item.details.stackTrace.forEach((frame, i) => {
          text(`details.stackTrace.${i}.className`, frame.className, T.name);
          text(`details.stackTrace.${i}.methodName`, frame.methodName, T.name);
          text(`details.stackTrace.${i}.fileName`, frame.fileName, T.fileName);
          integer(`details.stackTrace.${i}.lineNumber`, frame.lineNumber);
        });
      }
      break;
    case 'event':
      text('details.name', item.details.name, T.name);
      text('details.category', item.details.category, T.category);
      break;
    case 'firebaseAnalytics':
      text('details.name', item.details.name, T.name);
      text('details.category', item.details.category, T.category);
      text('details.level', item.details.level, T.level);
      break;
    case 'screenshot':
      text('details.name', item.details.name, T.name);
      text('details.image', item.details.image, T.encodedBody);
      text('details.mimeType', item.details.mimeType, T.mimeType);
      break;
    case 'network':
      checkNetwork(item.details, text, problems);
      break;
  }
  return problems.length ? problems.join('; ') : undefined;
}

function checkNetwork(d: NetworkDetails, text: (path: string, value: unknown, max: number) => void, problems: string[]): void {
  const headers = (path: string, map: Record<string, string> | undefined) => {
    if (!map) return;
    const names = Object.keys(map);
    if (names.length > ITEM_LIMITS.maxHeaders) problems.push(`${path}: at most ${ITEM_LIMITS.maxHeaders} headers`);
    for (const name of names) {
      text(`${path} name`, name, T.headerName);
      text(`${path}.${name}`, map[name], ITEM_LIMITS.maxHeaderValue);
    }
  };
  text('details.request.method', d.request.method, T.method);
  text('details.request.url', d.request.url, ITEM_LIMITS.maxUrlLength);
  headers('details.request.headers', d.request.headers);
  text('details.request.body', d.request.body, T.encodedBody);
  text('details.request.httpVersion', d.request.httpVersion, T.httpVersion);
  if (d.response) {
    text('details.response.statusText', d.response.statusText, T.statusText);
    headers('details.response.headers', d.response.headers);
    text('details.response.body', d.response.body, T.encodedBody);
    text('details.response.httpVersion', d.response.httpVersion, T.httpVersion);
  }
  text('details.error', d.error, T.error);
  text('details.mockedBy.mappedUrl', d.mockedBy?.mappedUrl, ITEM_LIMITS.maxUrlLength);
}
