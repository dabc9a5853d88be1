import { MIN_SDK_VERSION } from './constants';

export type Platform = 'ios' | 'android';

/**
 * Spec 000 §5: the dots are removed and the result is compared as a number with the platform
 * minimum. (So 1.4.60 counts as newer than 1.4.532 only if "1460" > "14532"; that is the
 * documented rule, kept as is so the dashboard agrees with the mobile SDKs' own check.)
 */
export function versionNumber(version: string): number {
  const n = Number(version.replace(/\./g, ''));
  return Number.isFinite(n) ? n : 0;
}

export function isSdkOutdated(platform: Platform, sdkVersion: string | null | undefined, minimum = MIN_SDK_VERSION[platform]): boolean {
  if (!sdkVersion) return false;
  return versionNumber(sdkVersion) < versionNumber(minimum);
}

export function sdkTooltip(outdated: boolean, latest: string): string {
  return outdated ? `Your SDK is outdated. Please update to ${latest}` : 'Your SDK is up to date';
}
