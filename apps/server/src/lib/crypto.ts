import crypto from 'node:crypto';
import { API_KEY_DEV_PREFIX, API_KEY_LIVE_PREFIX, API_KEY_RANDOM_LENGTH } from '@spyglass/protocol';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  let out = '';
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}

/** 256 bits, URL-safe: used for bearer tokens and e-mail links. */
export const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

export const newId = (): string => crypto.randomUUID();

export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

export function newApiKey(nodeEnv: string): string {
  return (nodeEnv === 'development' ? API_KEY_DEV_PREFIX : API_KEY_LIVE_PREFIX) + randomAlphanumeric(API_KEY_RANDOM_LENGTH);
}
