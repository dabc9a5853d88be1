import crypto from 'node:crypto';
import { SCREEN_CAPTURE_TEXTS } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, signUpByApi, type TestAccount } from './support/accounts';
import { FAKE_MEDIA_ARGS, launchBrowser, newContext, recordPageErrors } from './support/browser';
import { serveBrowserSdk } from './support/browser-sdk';
import { startCoturn, type Coturn } from './support/coturn';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/**
 * Issue 17: an app's screen, live in the dashboard's right sidebar. The app is a page running the
 * browser SDK in Chromium with fake media (getDisplayMedia shares a generated test pattern); the
 * dashboard is another page. Then the same through Debian's coturn, the viewer allowed relayed
 * candidates only, with the credentials the server hands out.
 */

/**
 * An app page with the SDK. `display`: it lets the dashboard ask for the screen (getDisplayMedia),
 * keeping what it shared in `window.shared`. `scripted`: its stream comes from `window.source`,
 * which the test sets per capture ('deny', 'fail', 'hold' until `window.release()`, or a canvas).
 */
async function appDevice(browser: Browser, siteUrl: string, serverUrl: string, account: TestAccount, name: string, mode: 'display' | 'scripted') {
  const context = await newContext(browser, siteUrl);
  const page = await context.newPage();
  const errors = recordPageErrors(page);
  await page.goto('/');
  const deviceId = await page.evaluate(`(async () => {
    const { createSpyglass } = await import('/sdk/browser.js');
    const getDisplayMedia = navigator.mediaDevices.getDisplayMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getDisplayMedia = async (constraints) => (window.shared = await getDisplayMedia(constraints));
    window.source = 'canvas';
    const scripted = () => {
      if (window.source === 'deny') return Promise.reject(new DOMException('Permission denied by the user', 'NotAllowedError'));
      if (window.source === 'fail') return Promise.reject(new Error('The camera is busy'));
      if (window.source === 'hold') return new Promise((resolve) => { window.release = () => resolve(scripted.canvas()); });
      return scripted.canvas();
    };
    scripted.canvas = () => {
      const canvas = document.createElement('canvas');
      canvas.width = 360; canvas.height = 640;
      const g = canvas.getContext('2d');
      let n = 0;
      setInterval(() => { g.fillStyle = '#1d4ed8'; g.fillRect(0, 0, 360, 640); g.fillStyle = '#fff'; g.font = '48px sans-serif'; g.fillText(String(n++), 40, 320); }, 33);
      return canvas.captureStream(30);
    };
    window.spyglass = createSpyglass({
      serverUrl: ${JSON.stringify(serverUrl)}, apiKey: ${JSON.stringify(account.profile.apiKey)},
      device: { name: ${JSON.stringify(name)}, platform: 'android' },
      screenCapture: ${mode === 'display' ? '{ displayMedia: true }' : '{ stream: scripted }'},
    });
    await new Promise((resolve) => window.spyglass.on('welcome', resolve));
    return window.spyglass.deviceId;
  })()`) as string;
  return { context, page, deviceId, errors };
}

/** The right sidebar's video: its size and how many frames Chromium decoded so far. */
const videoFrames = (page: Page) => page.evaluate(`(() => {
  const video = document.querySelector('.capture-video');
  return video ? { width: video.videoWidth, height: video.videoHeight, frames: video.getVideoPlaybackQuality().totalVideoFrames } : null;
})()`) as Promise<{ width: number; height: number; frames: number } | null>;

/** Waits for decoded frames, and for more of them: the stream is live, not one frozen picture. */
async function expectFramesFlowing(page: Page): Promise<{ width: number; height: number }> {
  await expect.poll(async () => (await videoFrames(page))?.width ?? 0, { timeout: 20_000 }).toBeGreaterThan(0).catch(async (error: Error) => {
    throw new Error(`no frames; the sidebar shows: ${await panel(page).innerText().catch(() => '(nothing)')}`, { cause: error });
  });
  const first = (await videoFrames(page))!;
  await expect.poll(async () => (await videoFrames(page))?.frames ?? 0, { timeout: 10_000 }).toBeGreaterThan(first.frames + 10);
  return first;
}

const panel = (page: Page) => page.locator('.right-sidebar .capture');

describe('remote screen capture', () => {
  let coturn: Coturn;
  beforeAll(async () => {
    coturn = await startCoturn();
  });
  const env = useE2eEnvironment(() => ({ env: { TURN_URLS: coturn.url, TURN_SECRET: coturn.secret, TURN_CREDENTIAL_TTL_S: '600' } }));
  let mediaBrowser: Browser;
  let site: Awaited<ReturnType<typeof serveBrowserSdk>>;
  let account: TestAccount;
  let phone: Awaited<ReturnType<typeof appDevice>>;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [mediaBrowser, site] = await Promise.all([launchBrowser(FAKE_MEDIA_ARGS), serveBrowserSdk()]);
    account = await signUpByApi(env.server);
    phone = await appDevice(mediaBrowser, site.url, env.server.url, account, 'Field Phone', 'display');
    contexts.push(phone.context);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await mediaBrowser?.close();
    await site?.close();
    await coturn?.stop();
  });

  async function dashboard(deviceId: string, options: { relayOnly?: boolean } = {}) {
    const { context, page } = await signedInContext(mediaBrowser, env.server, account);
    contexts.push(context);
    if (options.relayOnly) {
      // The viewer may use relayed candidates only: every frame has to pass through coturn.
      await context.addInitScript(`{
        const Native = window.RTCPeerConnection;
        window.NativeRTCPeerConnection = Native;
        window.peers = [];
        window.RTCPeerConnection = class extends Native {
          constructor(configuration) { super({ ...configuration, iceTransportPolicy: 'relay' }); window.peers.push(this); }
        };
      }`);
    }
    const errors = recordPageErrors(page);
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByRole('button', { name: 'Capture Screen' }));
    return { page, errors };
  }

  it('shows the screen an SDK device shares, decoded and moving, and Stop ends it for both', async () => {
    const { page, errors } = await dashboard(phone.deviceId);
    await (await visible(page.getByRole('button', { name: 'Capture Screen' }))).click();
    // The right sidebar opens at its default width and plays the device's screen.
    await visible(page.locator('.right-sidebar .capture[data-state="live"]'), 20_000);
    const { width, height } = await expectFramesFlowing(page);
    expect(width / height).toBeCloseTo(1280 / 720, 1);
    expect(await page.locator('.shell-right').evaluate((el) => (el as unknown as { offsetWidth: number }).offsetWidth)).toBe(320);
    expect(await panel(page).getByRole('status').innerText()).toBe('Live');
    await screenshotBothSchemes(page, 'screen-capture-live');

    // Another live connection of the account sends malformed signalling: it is refused, and the
    // stream on the dashboard plays on.
    const sloppy = new WebSocket(`${env.server.url.replace(/^http/, 'ws')}/ws?type=viewer&token=${encodeURIComponent(account.token)}`);
    const refusals: string[] = [];
    sloppy.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; message?: string };
      if (message.type === 'screen_capture_refused') refusals.push(message.message ?? '');
    });
    await new Promise((resolve, reject) => sloppy.once('open', resolve).once('error', reject));
    sloppy.send(JSON.stringify({ type: 'answer', target: phone.deviceId, sdp: 7 }));
    sloppy.send(JSON.stringify({ type: 'candidate', target: phone.deviceId, candidate: { sdpMid: '0' } }));
    await expect.poll(() => refusals).toHaveLength(2);
    sloppy.close();
    await expectFramesFlowing(page);
    expect(await panel(page).getAttribute('data-state')).toBe('live');

    await page.getByRole('button', { name: 'Stop Capture' }).click();
    await visible(page.getByText('Screen capture ended'));
    expect(await panel(page).getAttribute('data-state')).toBe('ended');
    expect(await page.locator('.capture-video').count()).toBe(0);
    // The device stopped capturing: the browser's sharing is over.
    await expect.poll(() => phone.page.evaluate(`window.shared.getTracks().every((track) => track.readyState === 'ended')`)).toBe(true);
    await screenshotBothSchemes(page, 'screen-capture-ended');

    // Started again from the panel itself.
    await page.getByRole('button', { name: 'Start Again' }).click();
    await expectFramesFlowing(page);
    await page.getByRole('button', { name: 'Stop Capture' }).click();
    await visible(page.getByText('Screen capture ended'));
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    expect(phone.errors).toEqual([]);
  });

  it('goes through coturn when the viewer may only use relayed candidates, with the server\'s credentials', async () => {
    const { page } = await dashboard(phone.deviceId, { relayOnly: true });
    await page.getByRole('button', { name: 'Capture Screen' }).click();
    await expectFramesFlowing(page);

    const path = await page.evaluate(`(async () => {
      const peer = window.peers.at(-1);
      const stats = await peer.getStats();
      let pair;
      stats.forEach((report) => { if (report.type === 'transport' && report.selectedCandidatePairId) pair = stats.get(report.selectedCandidatePairId); });
      const local = stats.get(pair.localCandidateId);
      return { localType: local.candidateType, policy: peer.getConfiguration().iceTransportPolicy, iceServers: peer.getConfiguration().iceServers };
    })()`) as { localType: string; policy: string; iceServers: { urls: string[]; username?: string }[] };
    expect(path.policy).toBe('relay');
    expect(path.localType).toBe('relay');
    const turn = path.iceServers.find((server) => server.username);
    expect(turn?.urls).toEqual([coturn.url]);
    expect(turn?.username).toMatch(new RegExp(`^\\d+:${account.profile.id}$`));
    await page.getByRole('button', { name: 'Stop Capture' }).click();
    await visible(page.getByText('Screen capture ended'));

    // coturn refuses credentials whose time is up, and takes fresh ones from the API.
    const gather = (server: { urls: string[]; username: string; credential: string }) => page.evaluate(`(async () => {
      const peer = new window.NativeRTCPeerConnection({ iceServers: [${JSON.stringify(server)}], iceTransportPolicy: 'relay' });
      const errors = [];
      const types = [];
      peer.onicecandidateerror = (event) => errors.push(event.errorCode);
      peer.onicecandidate = (event) => event.candidate && types.push(event.candidate.type);
      peer.createDataChannel('probe');
      const done = new Promise((resolve) => { peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && resolve(); });
      await peer.setLocalDescription(await peer.createOffer());
      await done;
      peer.close();
      return { errors, types };
    })()`) as Promise<{ errors: number[]; types: string[] }>;
    const username = `${Math.floor(Date.now() / 1000) - 60}:${account.profile.id}`;
    const expired = await gather({ urls: [coturn.url], username, credential: crypto.createHmac('sha1', coturn.secret).update(username).digest('base64') });
    expect(expired.types).toEqual([]);
    expect(expired.errors).toContain(401);
    const fresh = (await (await fetch(`${env.server.url}/v1/screen-capture/turn`, { headers: { authorization: `Bearer ${account.token}` } })).json()) as {
      iceServers: { urls: string[]; username: string; credential: string }[];
    };
    const granted = await gather(fresh.iceServers.find((server) => server.username)!);
    expect(granted.types).toContain('relay');
    expect(granted.errors).not.toContain(401);
  });

  it('reconnects by itself when the network path breaks and comes back', async () => {
    const { page } = await dashboard(phone.deviceId, { relayOnly: true });
    await page.getByRole('button', { name: 'Capture Screen' }).click();
    await expectFramesFlowing(page);
    // The relay goes away: the only path between the two peers is gone.
    await coturn.stop();
    await visible(page.locator('.right-sidebar .capture[data-state="connecting"]'), 30_000);
    coturn = await startCoturn(coturn);
    await visible(page.locator('.right-sidebar .capture[data-state="live"]'), 30_000);
    await expectFramesFlowing(page);
    await page.getByRole('button', { name: 'Stop Capture' }).click();
    await visible(page.getByText('Screen capture ended'));
  });

  it('shows the device emulator\'s emulated screen, which it broadcasts like an app', async () => {
    const { context, page: emulator } = await signedInContext(mediaBrowser, env.server, account);
    contexts.push(context);
    await emulator.goto('/device-emulator');
    await emulator.getByLabel('Name').fill('Emulated Pixel');
    await emulator.getByRole('button', { name: 'Start' }).click();
    await visible(emulator.getByRole('status', { name: 'Status' }).getByText('Online'));
    const devices = (await (await fetch(`${env.server.url}/v1/devices`, { headers: { authorization: `Bearer ${account.token}` } })).json()) as { id: string; name: string }[];
    const emulated = devices.find((device) => device.name === 'Emulated Pixel')!;

    const { page } = await dashboard(emulated.id);
    await page.getByRole('button', { name: 'Capture Screen' }).click();
    const { width, height } = await expectFramesFlowing(page);
    // The emulated phone's portrait screen, drawn at twice its CSS size.
    expect(height).toBeGreaterThan(width);
    await page.getByRole('button', { name: 'Stop Capture' }).click();
    await visible(page.getByText('Screen capture ended'));
  });

  it('shows every state of the sidebar: idle, connecting, denied, failed, not supported', async () => {
    const tablet = await appDevice(mediaBrowser, site.url, env.server.url, account, 'Lab Tablet', 'scripted');
    contexts.push(tablet.context);
    const { page } = await dashboard(tablet.deviceId);
    // Shown already when an earlier story opened it (it is a saved setting).
    const show = page.getByRole('button', { name: 'Show right sidebar' });
    if (await show.count()) await show.click();
    await visible(panel(page).getByText('Watch the screen live'));
    await screenshotBothSchemes(page, 'screen-capture-idle');

    const start = (label: string) => panel(page).getByRole('button', { name: label }).click();
    await tablet.page.evaluate(`window.source = 'hold'`);
    await start('Start Capture');
    await visible(panel(page).getByText('Connecting…'));
    await screenshotBothSchemes(page, 'screen-capture-connecting');
    await tablet.page.evaluate('window.release()');
    await expectFramesFlowing(page);
    await panel(page).getByRole('button', { name: 'Stop Capture' }).click();

    await tablet.page.evaluate(`window.source = 'deny'`);
    await start('Start Again');
    await visible(panel(page).getByText(SCREEN_CAPTURE_TEXTS.permissionRequired));
    await screenshotBothSchemes(page, 'screen-capture-denied');

    await tablet.page.evaluate(`window.source = 'fail'`);
    await start('Start Again');
    await visible(panel(page).getByText('Screen capture failed'));
    await visible(panel(page).getByText('The screen could not be captured: The camera is busy'));
    await screenshotBothSchemes(page, 'screen-capture-failed');

    // A device whose SDK cannot share its screen (here Node's) is not even asked.
    const kiosk: SpyglassClient = createSpyglass({ serverUrl: env.server.url, apiKey: account.profile.apiKey, installId: `e2e-kiosk-${Date.now()}`, device: { name: 'Kiosk', platform: 'ios' } });
    try {
      await new Promise<void>((resolve) => kiosk.on('welcome', () => resolve()));
      await page.goto(`/devices/${kiosk.deviceId}`);
      await (await visible(page.getByRole('button', { name: 'Capture Screen' }))).click();
      await visible(panel(page).getByText(SCREEN_CAPTURE_TEXTS.notSupported));
      await visible(panel(page).getByText('On iOS, screen capture needs the screen-share variant of the SDK.'));
      await screenshotBothSchemes(page, 'screen-capture-not-supported');
    } finally {
      await kiosk.stop();
    }
  });
});
