import { DEMO_FLAG_KEY } from './studio-settings';

/** Whether the demo flag is in browser storage (spec 002 §2: then the whole app is wrapped in the studio). */
export function isDemoStudioOn(): boolean {
  try {
    return localStorage.getItem(DEMO_FLAG_KEY) !== null;
  } catch {
    return false;
  }
}
