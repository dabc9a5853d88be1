import type { WELCOME_TOURS } from './constants';

type TourId = keyof typeof WELCOME_TOURS;
type StepOf<T extends TourId> = (typeof WELCOME_TOURS)[T][number];

/**
 * What the user really does that completes a welcome-tour step (spec 000 §3). The server records
 * what it sees (items from a device, commands, mocks); the page records UI events through
 * `POST /user/welcome-tour/step`.
 */
export const TOUR_EVENTS = {
  logReceived: { tourId: 'BASIC_TUTORIAL', stepId: 'Send first Log' },
  screenshotReceived: { tourId: 'BASIC_TUTORIAL', stepId: 'Take screenshot' },
  debugWindowOpened: { tourId: 'BASIC_TUTORIAL', stepId: 'Open Mobile Debug menu' },
  filterUsed: { tourId: 'BASIC_TUTORIAL', stepId: 'Filter Requests' },
  networkRequestReceived: { tourId: 'MOCKING_TUTORIAL', stepId: 'Send network request' },
  payloadOpened: { tourId: 'MOCKING_TUTORIAL', stepId: 'Inspect Payload' },
  mockEnabled: { tourId: 'MOCKING_TUTORIAL', stepId: 'Enable Mock' },
  responseModified: { tourId: 'MOCKING_TUTORIAL', stepId: 'Modify Response' },
  mockedRequestReceived: { tourId: 'MOCKING_TUTORIAL', stepId: 'Send request again' },
} as const satisfies Record<string, { [T in TourId]: { tourId: T; stepId: StepOf<T> } }[TourId]>;
export type TourEvent = keyof typeof TOUR_EVENTS;

/** Tour texts of spec 000 §8 / 001 §8. */
export const TOUR_MESSAGES = {
  getFailed: 'Failed to get welcome tour',
  saveFailed: 'Failed to save welcome tour',
  stepFailed: 'Failed to update welcome tour step',
  loadProgressFailed: 'Failed to load progress',
} as const;
