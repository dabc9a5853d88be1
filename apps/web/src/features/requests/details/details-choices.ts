/**
 * What the details panel remembers in local storage (spec 001 §9: request tab, response tab and
 * default body view; and the panel's height, which expand/collapse returns to).
 */
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { readLocalJson, writeLocalJson } from '../../../lib/storage';
import { DETAILS_DEFAULT_HEIGHT, DETAILS_MIN_HEIGHT } from './panel-height';

export const REQUEST_TABS = ['Body', 'Headers', 'Query', 'Details'] as const;
export const RESPONSE_TABS = ['Body', 'Headers', 'Details'] as const;

/** How a body is shown: structured (JSON tree, indented XML, form table), as it came, or rendered (HTML in a sandbox). */
export const BODY_VIEWS = ['pretty', 'raw', 'preview'] as const;
export type BodyView = (typeof BODY_VIEWS)[number];

export const DetailsChoices = z.object({
  requestTab: z.enum(REQUEST_TABS).catch('Body'),
  responseTab: z.enum(RESPONSE_TABS).catch('Body'),
  bodyView: z.enum(BODY_VIEWS).catch('pretty'),
  height: z.number().int().min(DETAILS_MIN_HEIGHT).max(10_000).catch(DETAILS_DEFAULT_HEIGHT),
});
export type DetailsChoices = z.infer<typeof DetailsChoices>;

export const DETAILS_CHOICES_KEY = 'details-panel';
const DEFAULTS: DetailsChoices = { requestTab: 'Body', responseTab: 'Body', bodyView: 'pretty', height: DETAILS_DEFAULT_HEIGHT };

export function readDetailsChoices(): DetailsChoices {
  return readLocalJson(DETAILS_CHOICES_KEY, DetailsChoices) ?? DEFAULTS;
}

/**
 * The remembered choices and a setter that stores each change at once. The shell (height) and the
 * content (tabs) each hold a copy, so a write merges into what is stored, not into this copy.
 */
export function useDetailsChoices(): [DetailsChoices, (change: Partial<DetailsChoices>) => void] {
  const [choices, setChoices] = useState(readDetailsChoices);
  const update = useCallback((change: Partial<DetailsChoices>) => {
    writeLocalJson(DETAILS_CHOICES_KEY, { ...readDetailsChoices(), ...change });
    setChoices((current) => ({ ...current, ...change }));
  }, []);
  return [choices, update];
}
