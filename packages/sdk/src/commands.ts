import { SCREEN_CAPTURE_TEXTS } from '@spyglass/protocol/device';
import type { CommandFrame, FeatureToggles, IceServer } from '@spyglass/protocol';
import type { ScreenCaptureControl } from './screen-capture/broadcaster';
import type { ScreenshotInput } from './items';
import type { MockEngine } from './mocks/mock-engine';
import type { UserDefaultsBook } from './user-defaults';

/** What the dashboard's commands act on (docs/protocol.md §6). */
export interface CommandTarget {
  screenshotCapturer: (() => Promise<ScreenshotInput> | ScreenshotInput) | undefined;
  onOpenSheet: (() => Promise<void> | void) | undefined;
  /** Absent where the runtime or the app does not allow screen capture. */
  screenCapture: ScreenCaptureControl | undefined;
  mocks: MockEngine;
  /** Records the `Pong` log item whatever the toggles say: it is how the dashboard sees the ping arrive. */
  recordPong(): string | undefined;
  screenshot(input: ScreenshotInput): string | undefined;
  setToggles(toggles: FeatureToggles): void;
  setBreakpoint(enabled: boolean): void;
  userDefaults: Pick<UserDefaultsBook, 'run'>;
}

/** Runs a command; answers the result's `data`, or throws the error the dashboard shows. */
export async function runCommand(frame: CommandFrame, target: CommandTarget): Promise<unknown> {
  const args = frame.args ?? {};
  switch (frame.name) {
    case 'ping':
      return { pong: true, itemId: target.recordPong() };
    case 'take_screenshot': {
      if (!target.screenshotCapturer) throw new Error('This device cannot take screenshots');
      const image = await target.screenshotCapturer();
      return { itemId: target.screenshot(image) };
    }
    case 'start_screen_capture': {
      // The offer (or why there is none) follows as signalling frames: a permission prompt may take a while.
      if (!target.screenCapture) throw new Error(SCREEN_CAPTURE_TEXTS.notSupported);
      const viewerId = viewerOf(args);
      if (!Array.isArray(args.iceServers)) throw new Error('iceServers must be an array');
      target.screenCapture.start({ viewerId, iceServers: args.iceServers as IceServer[] });
      return { viewerId };
    }
    case 'stop_screen_capture': {
      const viewerId = viewerOf(args);
      target.screenCapture?.stop(viewerId);
      return { viewerId };
    }
    case 'open_sheet':
      if (!target.onOpenSheet) throw new Error('This app has no Spyglass sheet');
      await target.onOpenSheet();
      return undefined;
    case 'feature_toggles': {
      const toggles = featureToggles(args.featureToggles ?? args);
      target.setToggles(toggles);
      return { featureToggles: toggles };
    }
    case 'breakpoint':
      if (typeof args.breakpointEnabled !== 'boolean') throw new Error('breakpointEnabled must be a boolean');
      target.setBreakpoint(args.breakpointEnabled);
      return { breakpointEnabled: args.breakpointEnabled };
    case 'mocks':
      return target.mocks.apply(args);
    case 'user_defaults':
      return target.userDefaults.run(args);
  }
}

function viewerOf(args: Record<string, unknown>): string {
  if (typeof args.viewerId !== 'string' || args.viewerId === '') throw new Error('viewerId must be a string');
  return args.viewerId;
}

const TOGGLE_NAMES = ['logs', 'network', 'prints', 'events'] as const satisfies readonly (keyof FeatureToggles)[];

/** The four switches, each a boolean, as the protocol's FeatureToggles schema requires. */
function featureToggles(value: unknown): FeatureToggles {
  const given = (value ?? {}) as Record<string, unknown>;
  const toggles = {} as FeatureToggles;
  for (const name of TOGGLE_NAMES) {
    if (typeof given[name] !== 'boolean') throw new Error(`featureToggles.${name} must be a boolean`);
    toggles[name] = given[name];
  }
  return toggles;
}
