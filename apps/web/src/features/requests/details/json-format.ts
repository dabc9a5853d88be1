import { useEffect, useMemo, useState } from 'react';
import { OFF_THREAD_JSON_CHARS, parseJson } from './body-kind';

export interface JsonFormatRequest {
  id: number;
  text: string;
}

export type JsonFormatResult = { id: number; ok: true; value: unknown; pretty: string } | { id: number; ok: false };

/** A JSON body ready to show: its value and its indented text, or not JSON after all. */
export type FormattedJson = { ok: true; value: unknown; pretty: string } | { ok: false };

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (result: FormattedJson) => void>();
/** The last body formatted: the tree and the Raw view of one body share one parse. */
let last: { text: string; result: Promise<FormattedJson> } | null = null;

function formatWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./json-format.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<JsonFormatResult>) => {
      const { id, ...result } = event.data;
      waiting.get(id)?.(result as FormattedJson);
      waiting.delete(id);
    };
  }
  return worker;
}

/** Parses and indents `text` in the worker. */
export function formatJsonOffThread(text: string): Promise<FormattedJson> {
  if (last?.text === text) return last.result;
  const id = ++nextId;
  const result = new Promise<FormattedJson>((resolve) => waiting.set(id, resolve));
  formatWorker().postMessage({ id, text } satisfies JsonFormatRequest);
  last = { text, result };
  return result;
}

function formatHere(text: string): FormattedJson {
  const parsed = parseJson(text);
  return parsed.ok ? { ok: true, value: parsed.value, pretty: JSON.stringify(parsed.value, null, 2) } : { ok: false };
}

/**
 * A JSON body formatted for the details panel: at once for a small body, from the worker for a
 * large one (null meanwhile, so the panel shows that it is formatting instead of freezing).
 */
export function useFormattedJson(text: string): FormattedJson | null {
  const offThread = text.length >= OFF_THREAD_JSON_CHARS;
  const here = useMemo(() => (offThread ? null : formatHere(text)), [text, offThread]);
  const [done, setDone] = useState<{ text: string; result: FormattedJson } | null>(null);
  useEffect(() => {
    if (!offThread) return;
    let current = true;
    void formatJsonOffThread(text).then((result) => {
      if (current) setDone({ text, result });
    });
    return () => {
      current = false;
    };
  }, [text, offThread]);
  if (here) return here;
  return done?.text === text ? done.result : null;
}
