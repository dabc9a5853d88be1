import { describe, expect, it } from 'vitest';
import {
  clampPadding, clampRadius, clampSize, clickZoom, DEFAULT_STUDIO_SETTINGS, keyboardZoom, parseStudioSettings, recordingName,
  screenshotName, supportedVideoFormats,
} from './studio-settings';

describe('studio settings (spec 002 §3, §5, §9)', () => {
  it('has the defaults of §9', () => {
    expect(DEFAULT_STUDIO_SETTINGS).toMatchObject({
      zoom: 1, containerWidth: 1280, containerHeight: 720, containerPadding: 20, appPadding: 20, appBorderRadius: 10,
      appWrapperBackground: '#1a1a1a', backgroundColor: '#667eea', videoResolution: '1920x1080', videoFPS: 30,
      videoFormat: 'webm-vp9', screenshotFormat: 'png',
    });
  });

  it('keeps inputs in their ranges with the fallbacks of §5', () => {
    expect([clampSize(100), clampSize(2500), clampSize('abc'), clampSize('640')]).toEqual([200, 2000, 200, 640]);
    expect([clampPadding(-5), clampPadding(80), clampPadding('x'), clampPadding(12)]).toEqual([0, 50, 0, 12]);
    expect([clampRadius(30), clampRadius(''), clampRadius(4)]).toEqual([20, 0, 4]);
  });

  it('reads stored settings field by field: bad values fall back, good ones stay', () => {
    expect(parseStudioSettings(null)).toEqual(DEFAULT_STUDIO_SETTINGS);
    expect(parseStudioSettings('not json')).toEqual(DEFAULT_STUDIO_SETTINGS);
    const read = parseStudioSettings(JSON.stringify({
      zoom: 9, containerWidth: 5000, appPadding: 'wide', videoFPS: 60, videoResolution: '123x4', activeTab: 'frames',
      autozoomEnabled: false, backgroundType: 'color', backgroundColor: '#112233', screenshotFormat: 'webp',
    }));
    expect(read).toMatchObject({
      zoom: 3, containerWidth: 2000, appPadding: 0, videoFPS: 60, videoResolution: '1920x1080', activeTab: 'frames',
      autozoomEnabled: false, backgroundType: 'color', backgroundColor: '#112233', screenshotFormat: 'webp',
    });
  });

  it('zooms by keyboard: ctrl with + or - by 0.1 within 0.5 to 3, ctrl+0 back to 100%', () => {
    expect(keyboardZoom(1, { key: '+', ctrlKey: true })).toBe(1.1);
    expect(keyboardZoom(1, { key: '=', ctrlKey: true })).toBe(1.1);
    expect(keyboardZoom(1, { key: '-', ctrlKey: true })).toBe(0.9);
    expect(keyboardZoom(0.5, { key: '-', ctrlKey: true })).toBe(0.5);
    expect(keyboardZoom(3, { key: '+', ctrlKey: true })).toBe(3);
    expect(keyboardZoom(2.3, { key: '0', ctrlKey: true })).toBe(1);
    expect(keyboardZoom(1, { key: '+', ctrlKey: false })).toBeNull();
    expect(keyboardZoom(1, { key: 'a', ctrlKey: true })).toBeNull();
  });

  it('zooms by click: +0.2 capped at 1.2, beyond 350 px from the centre, only with autozoom', () => {
    const centre = { x: 500, y: 400 };
    expect(clickZoom(1, true, { x: 900, y: 400 }, centre)).toBe(1.2);
    expect(clickZoom(1.1, true, { x: 900, y: 400 }, centre)).toBe(1.2);
    expect(clickZoom(1.2, true, { x: 900, y: 400 }, centre)).toBeNull();
    expect(clickZoom(1, true, { x: 700, y: 500 }, centre)).toBeNull();
    expect(clickZoom(1, false, { x: 900, y: 400 }, centre)).toBeNull();
  });

  it('offers only the formats the browser records, and names files as §3 says', () => {
    expect(supportedVideoFormats((t) => t.startsWith('video/webm')).map((f) => f.label)).toEqual(['WebM VP9', 'VP8', 'WebM']);
    expect(recordingName(1764140000000, 'webm')).toBe('recording-1764140000000.webm');
    expect(screenshotName(new Date(2026, 10, 26, 7, 5, 9), 'webp')).toBe('Screenshot_2026-11-26_07-05-09.webp');
  });
});
