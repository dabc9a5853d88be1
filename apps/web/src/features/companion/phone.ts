import type { DevicePlatform } from '@spyglass/protocol';

/** What the phone's browser says it is. */
export function phoneOf(userAgent: string): { platform: DevicePlatform; name: string; model: string; systemVersion: string } {
  if (/iPhone|iPad|iPod/.test(userAgent)) {
    const model = /iPad/.test(userAgent) ? 'iPad' : 'iPhone';
    return { platform: 'ios', name: model, model, systemVersion: /OS (\d+)_(\d+)/.exec(userAgent)?.slice(1, 3).join('.') ?? '' };
  }
  if (/Android/.test(userAgent)) {
    return {
      platform: 'android', name: 'Android phone',
      model: /Android[^;]*;\s*([^;)]+)/.exec(userAgent)?.[1]?.trim() ?? 'Android',
      systemVersion: /Android (\d+(?:\.\d+)*)/.exec(userAgent)?.[1] ?? '',
    };
  }
  return { platform: 'web', name: 'Browser', model: 'Browser', systemVersion: '' };
}
