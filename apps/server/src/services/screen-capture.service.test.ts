import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { iceServersFor, turnCredential } from './screen-capture.service';

const relays = { stunUrls: [], turnUrls: [], turnSecret: null, turnCredentialTtlS: 3600 };

describe('screen capture relays', () => {
  it('hands out STUN only, or nothing, while no TURN server is configured', () => {
    expect(iceServersFor(relays, 'u1', 0)).toEqual([]);
    expect(iceServersFor({ ...relays, stunUrls: ['stun:stun.example.com:3478'] }, 'u1', 0)).toEqual([{ urls: ['stun:stun.example.com:3478'] }]);
    // A TURN URL without the secret cannot be given usable credentials.
    expect(iceServersFor({ ...relays, turnUrls: ['turn:turn.example.com'] }, 'u1', 0)).toEqual([]);
  });

  it('derives coturn use-auth-secret credentials: expiry:user and base64 HMAC-SHA1', () => {
    const [turn] = iceServersFor({ ...relays, turnUrls: ['turn:t:3478', 'turns:t:5349'], turnSecret: 'k' }, 'user-7', 1_700_000_000_500);
    expect(turn).toEqual({
      urls: ['turn:t:3478', 'turns:t:5349'],
      username: '1700003600:user-7',
      credential: crypto.createHmac('sha1', 'k').update('1700003600:user-7').digest('base64'),
    });
    // The RFC draft's example shape: 28 base64 characters for the 20 bytes of SHA-1.
    expect(turnCredential('k', 'x', 1).credential).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });
});
