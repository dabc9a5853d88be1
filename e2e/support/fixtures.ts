import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions, type VirtualDevice } from '@spyglass/simulator';
import { signedInContext, signUpByApi, type TestAccount } from './accounts';
import { newContext, recordPageErrors } from './browser';
import type { E2eEnvironment } from './environment';

/** A browser profile with one page whose errors are recorded (recordPageErrors). */
export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export interface SignedInUser extends OpenedPage {
  account: TestAccount;
}

export interface SimulatedDevice {
  simulator: Simulator;
  /** The simulator's first device. */
  device: VirtualDevice;
  deviceId: string;
}

/** How a story's simulator runs: one device making no traffic of its own unless it says otherwise. */
export type SimulatorChoice = Partial<Omit<SimulatorOptions, 'serverUrl' | 'apiKey'>>;

export interface StoryFixtures {
  /** A fresh browser profile on the server, signed out (for stories that sign in through the form). */
  browserPage(options?: BrowserContextOptions): Promise<OpenedPage>;
  /** A new account (onboarded, as signUpByApi makes it) or `account`, signed in in a fresh browser profile. */
  signedInUser(options?: { account?: TestAccount; context?: BrowserContextOptions }): Promise<SignedInUser>;
  /** A simulator of the devices of `apiKey` (an account's, or the one a page shows), started. */
  simulator(apiKey: string, options?: SimulatorChoice): Promise<Simulator>;
  /** `simulator`, once its devices are connected. */
  simulatedDevice(apiKey: string, options?: SimulatorChoice): Promise<SimulatedDevice>;
  /** `signedInUser`, then its device from the simulator. */
  signedInWithDevice(options?: { context?: BrowserContextOptions; simulator?: SimulatorChoice }): Promise<SignedInUser & SimulatedDevice>;
}

/**
 * Registers an afterEach that stops every simulator and then closes every browser profile the test
 * opened through the returned functions, so a failing story leaves nothing running for the next.
 * Stopping early inside a test (a device going away) is fine: both stop only once.
 */
export function useStoryFixtures(env: E2eEnvironment): StoryFixtures {
  const simulators: Simulator[] = [];
  const contexts: BrowserContext[] = [];

  afterEach(async () => {
    for (const simulator of simulators.splice(0)) await simulator.stop();
    for (const context of contexts.splice(0)) await context.close();
  });

  const opened = (context: BrowserContext, page: Page): OpenedPage => {
    contexts.push(context);
    return { context, page, errors: recordPageErrors(page) };
  };

  const fixtures: StoryFixtures = {
    async browserPage(options = {}) {
      const context = await newContext(env.browser, env.server.url, options);
      return opened(context, await context.newPage());
    },
    async signedInUser({ account, context: options } = {}) {
      const user = account ?? (await signUpByApi(env.server));
      const { context, page } = await signedInContext(env.browser, env.server, user, options);
      return { account: user, ...opened(context, page) };
    },
    async simulator(apiKey, options = {}) {
      const simulator = await startSimulator({ devices: 1, rate: 0, ...options, serverUrl: env.server.url, apiKey });
      simulators.push(simulator);
      return simulator;
    },
    async simulatedDevice(apiKey, options) {
      const simulator = await fixtures.simulator(apiKey, options);
      await simulator.connected();
      const device = simulator.devices[0]!;
      return { simulator, device, deviceId: device.installId };
    },
    async signedInWithDevice({ context, simulator } = {}) {
      const user = await fixtures.signedInUser({ context });
      return { ...user, ...(await fixtures.simulatedDevice(user.account.profile.apiKey, simulator)) };
    },
  };
  return fixtures;
}
