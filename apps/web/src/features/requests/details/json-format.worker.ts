/// <reference lib="webworker" />
/**
 * Parses and indents a large JSON body off the main thread: 5 MB of JSON costs tens of
 * milliseconds to parse and as much again to indent, which would freeze the details panel.
 */
import type { JsonFormatRequest, JsonFormatResult } from './json-format';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<JsonFormatRequest>) => {
  const { id, text } = event.data;
  let result: JsonFormatResult;
  try {
    const value: unknown = JSON.parse(text);
    result = { id, ok: true, value, pretty: JSON.stringify(value, null, 2) };
  } catch {
    result = { id, ok: false };
  }
  self.postMessage(result);
};
