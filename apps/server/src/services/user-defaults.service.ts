import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import {
  USER_DEFAULTS_MIN_PROTOCOL_VERSION, USER_DEFAULTS_TIMEOUT_MS, UserDefaultsCommandData,
  type UserDefaultsCommandArgs, type UserDefaultsResponse,
} from '@spyglass/protocol';
import type { AppContext } from '../context';
import { conflict, notFound, tooManyRequests, upstreamFailed } from '../errors';
import { findDevice } from '../repositories/devices.repository';

export const USER_DEFAULTS_DEVICE_NOT_FOUND = 'Device not found';
/** Spec 002 §2: user defaults are an iOS store; other platforms have none to read or write. */
export const USER_DEFAULTS_IOS_ONLY = 'User defaults are only available on iOS devices';
export const USER_DEFAULTS_TOO_OLD =
  `This device's SDK is too old for user defaults: update it to one that speaks protocol version ${USER_DEFAULTS_MIN_PROTOCOL_VERSION} or later`;

/** Calls one account may make per minute: editing by hand never comes near it, a script looping does. */
export const USER_DEFAULTS_CALLS_PER_MINUTE = 120;

/**
 * User defaults live on the device only (spec 002 'User defaults view'): every call is relayed to
 * it as a `user_defaults` command (docs/protocol.md §6.2) and answers what the device's store holds
 * afterwards. Nothing is stored on the server. The caller gets the device's answer; viewers hear of
 * the app's own changes (`user_defaults_changed`, sent by the device).
 */
export class UserDefaultsService {
  /** Per account, counted by every node together when they share Redis. */
  private readonly limiter: RateLimiterAbstract;

  constructor(private readonly ctx: AppContext) {
    this.limiter = ctx.limiters.limiter({ keyPrefix: 'user-defaults', points: USER_DEFAULTS_CALLS_PER_MINUTE, duration: 60 });
  }

  /**
   * 404 for a device of another account (or none), 429 over the rate, 409 for a device that is not
   * iOS (USER_DEFAULTS_IOS_ONLY) and 409 'Device is offline',
   * 504 when the device does not answer in time, 502 when it answers that it could not.
   */
  async run(userId: string, deviceId: string, args: UserDefaultsCommandArgs): Promise<UserDefaultsResponse> {
    await this.consume(userId);
    const device = await findDevice(this.ctx.db, userId, deviceId, this.ctx.now());
    if (!device) throw notFound(USER_DEFAULTS_DEVICE_NOT_FOUND);
    if (device.platform !== 'ios') throw conflict(USER_DEFAULTS_IOS_ONLY);
    const result = await this.ctx.live.commands.send(userId, device.id, 'user_defaults', args, {
      timeoutMs: USER_DEFAULTS_TIMEOUT_MS,
      timeoutIsGatewayTimeout: true,
      minProtocolVersion: USER_DEFAULTS_MIN_PROTOCOL_VERSION,
      unsupportedMessage: USER_DEFAULTS_TOO_OLD,
    });
    if (!result.ok) throw upstreamFailed(result.error || 'The device could not run the command');
    const data = UserDefaultsCommandData.safeParse(result.data);
    if (!data.success) throw upstreamFailed('The device answered with user defaults that are not valid');
    return { deviceId: device.id, groups: data.data.groups };
  }

  private async consume(userId: string): Promise<void> {
    try {
      await this.limiter.consume(userId);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooManyRequests(`Too many user defaults calls, please try again in ${Math.ceil(e.msBeforeNext / 1000)}s`);
      throw e;
    }
  }
}
