import { useEffect, useState } from 'react';
import { useQuotaLiveSync } from '../../features/billing/quota-live-sync';
import { useDeviceLiveSync } from '../../features/devices/device-live-sync';
import { useToken } from '../../lib/auth';
import { connectionLostText, useLiveConnectionLifecycle, useLiveState } from '../../lib/live';
import { Banner } from '../../ui/banner';

/**
 * Keeps the tab's live connection (lib/live.ts) open while the signed-in shell is shown, and what
 * it keeps current on every screen. A component of its own, so that live updates re-render
 * nothing else.
 */
export function ShellLiveConnection() {
  useLiveConnectionLifecycle(useToken());
  useDeviceLiveSync();
  useQuotaLiveSync();
  return null;
}

/** 'WebSocket connection lost (code). Reconnecting in Ns...' with a countdown (spec 000 §4.6, §8). */
export function LiveConnectionBanner() {
  const state = useLiveState();
  const [now, setNow] = useState(() => Date.now());
  const counting = state.retryAt !== null;
  useEffect(() => {
    if (!counting) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [counting, state.retryAt]);
  const text = connectionLostText(state, now);
  return text && <Banner tone="warning">{text}</Banner>;
}
