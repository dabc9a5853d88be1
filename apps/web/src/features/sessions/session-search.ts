import type { Session } from '@spyglass/protocol';

/** The sessions list's search: any word of the query in the name, device name or app version, case-insensitive. */
export function matchesSessionSearch(session: Session, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [session.name, session.device.name, session.device.clientAppVersion ?? ''].join('\n').toLowerCase();
  return words.every((word) => text.includes(word));
}
