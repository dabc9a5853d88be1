import { Apple, Globe, Hexagon } from 'lucide-react';
import type { DevicePlatform } from '@spyglass/protocol';

/** Android's robot head, drawn like lucide's icons (lucide has no brand marks). */
function AndroidHead({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 17a8 8 0 0 1 16 0Z" />
      <path d="m7 7.5-1.5-2.5" />
      <path d="m17 7.5 1.5-2.5" />
      <circle cx="9" cy="13" r="0.6" fill="currentColor" />
      <circle cx="15" cy="13" r="0.6" fill="currentColor" />
    </svg>
  );
}

export function PlatformIcon({ platform, size = 15 }: { platform: DevicePlatform; size?: number }) {
  switch (platform) {
    case 'ios': return <Apple size={size} aria-hidden="true" />;
    case 'android': return <AndroidHead size={size} />;
    case 'web': return <Globe size={size} aria-hidden="true" />;
    case 'node': return <Hexagon size={size} aria-hidden="true" />;
  }
}
