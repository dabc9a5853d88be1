import { describe, expect, it } from 'vitest';
import { phoneOf } from './phone';

describe('the companion’s phone', () => {
  it('tells iPhones, Android phones and other browsers from their user agent', () => {
    expect(phoneOf('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15')).toEqual({ platform: 'ios', name: 'iPhone', model: 'iPhone', systemVersion: '18.1' });
    expect(phoneOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36')).toEqual({ platform: 'android', name: 'Android phone', model: 'Pixel 8', systemVersion: '14' });
    expect(phoneOf('Mozilla/5.0 (X11; Linux x86_64)')).toMatchObject({ platform: 'web', systemVersion: '' });
  });
});
