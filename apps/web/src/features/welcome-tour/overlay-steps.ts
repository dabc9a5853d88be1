import type { TourId } from './welcome-tour.api';
import type { OverlayPosition } from './overlay-machine';

/** A part of the page that a user can hide, where some steps' targets lie. */
export type TourPanel = 'sidebar' | 'details';

/** Spec 000 §3: a guided overlay step. `target` is a CSS selector, `text` narrows it to the element showing that text. */
export interface OverlayStep {
  target: { selector: string; text?: string };
  instruction: string;
  position?: OverlayPosition;
  /** Done to the target when the user moves on (Next or Finish). */
  action?: 'click' | 'focus' | 'scroll';
  /**
   * The step talks about items arriving in the request list or points at one of its rows: the
   * list shows every item while it is on (a filter set before would hide what the step names).
   */
  showsWholeList?: true;
  /**
   * A part of the page the user may have hidden that the step needs: the navigation sidebar (a
   * phone shows it as a drawer over the page, closed by default; a desktop user may hide it) or the
   * details panel (its top-bar toggle), where the step's target lies or, on the step after the mock
   * editor's, the field the user was sent to edit. The shell shows it for the step over the user's
   * state and hides it again after, without saving anything.
   */
  showsPanel?: TourPanel;
}

const REQUEST_LIST = { selector: '[role="grid"][aria-label="Requests"], .console-view' };

/** The overlay of each tour, on a device's dashboard: one step per checklist step. */
export const OVERLAY_STEPS: Record<TourId, OverlayStep[]> = {
  BASIC_TUTORIAL: [
    { target: REQUEST_LIST, instruction: 'Send a first log from your app (console.log or your logger): it shows up in this list.', action: 'scroll', showsWholeList: true },
    { target: { selector: '.nav-item-button', text: 'Take Screenshot' }, instruction: 'Take a screenshot of the device: it arrives in the list as a screenshot item.', position: 'right', action: 'click', showsWholeList: true, showsPanel: 'sidebar' },
    { target: { selector: '.nav-item-button', text: 'Open Debug Window' }, instruction: 'Open the Mobile Debug menu on the device.', position: 'right', action: 'click', showsPanel: 'sidebar' },
    // The bordered field, not its input: the input starts after the magnifier icon, and a highlight
    // around it sat 29 px to the right of the box the user sees. `focus` reaches the input inside.
    { target: { selector: '[role="search"][aria-label="Search requests"] .search-field' }, instruction: 'Filter the requests: pick a type or type a search, e.g. status:>=400.', action: 'focus' },
  ],
  MOCKING_TUTORIAL: [
    { target: REQUEST_LIST, instruction: 'Send a network request from your app: it shows up in this list.', action: 'scroll', showsWholeList: true },
    { target: { selector: '.req-row[data-type="network"]' }, instruction: 'Open the request to inspect its payload.', action: 'click', showsWholeList: true },
    { target: { selector: 'section[aria-label="Mock"] .item-mock-toggle' }, instruction: 'Enable the mock: the device answers this request with the response below.', position: 'top', action: 'click', showsPanel: 'details' },
    { target: { selector: 'section[aria-label="Mock"] .item-mock-fields' }, instruction: 'Modify the response: change its status, headers or body.', position: 'top', action: 'focus', showsPanel: 'details' },
    // Moving on from step 4 focuses the response's status in the details: they stay for this step.
    { target: REQUEST_LIST, instruction: 'Send the same request again from your app: it comes back with your mocked response, marked ⚡.', position: 'bottom', action: 'scroll', showsWholeList: true, showsPanel: 'details' },
  ],
};

/** The target element now on the page, if any. */
export function findTarget(target: OverlayStep['target']): HTMLElement | null {
  const candidates = Array.from(document.querySelectorAll<HTMLElement>(target.selector));
  const wanted = target.text;
  return (wanted === undefined ? candidates[0] : candidates.find((el) => el.textContent?.includes(wanted))) ?? null;
}

/** Performs a step's action on its target; `focus` goes to the first field inside a container. */
export function performAction(element: HTMLElement, action: OverlayStep['action']): void {
  switch (action) {
    case 'click':
      (element.querySelector<HTMLElement>('input[type="checkbox"], [role="switch"]') ?? element).click();
      break;
    case 'focus':
      (element.matches('input, textarea, select, [contenteditable]') ? element : element.querySelector<HTMLElement>('input, textarea, select, [contenteditable]') ?? element).focus();
      break;
    case 'scroll':
      element.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      break;
    default:
  }
}
