import { z } from 'zod';
import { USER_DEFAULTS_LIMITS } from './user-defaults-constants';

export * from './user-defaults-constants';

/**
 * A stored value (spec 002 §3): a string, a boolean or a structured value (any JSON: numbers,
 * arrays, objects). Its JSON text is limited to `maxValueLength` characters.
 */
export const UserDefaultValue = z.json().refine(
  (value) => JSON.stringify(value).length <= USER_DEFAULTS_LIMITS.maxValueLength,
  `A value may hold at most ${USER_DEFAULTS_LIMITS.maxValueLength} characters of JSON`,
);
export type UserDefaultValue = z.infer<typeof UserDefaultValue>;

const SuiteName = z.string().min(1).max(USER_DEFAULTS_LIMITS.maxNameLength);
const Key = z.string().min(1).max(USER_DEFAULTS_LIMITS.maxKeyLength);
const DeviceId = z.string().min(1).max(200);

export const UserDefaultsEntry = z.object({ key: Key, value: UserDefaultValue });
export type UserDefaultsEntry = z.infer<typeof UserDefaultsEntry>;

/** One suite of a device's key-value preferences (spec 002 §3 'User defaults group'). */
export const UserDefaultsGroup = z.object({ name: SuiteName, entries: z.array(UserDefaultsEntry) });
export type UserDefaultsGroup = z.infer<typeof UserDefaultsGroup>;

export const UserDefaultsGroups = z.array(UserDefaultsGroup).refine(
  (groups) => groups.reduce((n, group) => n + group.entries.length, 0) <= USER_DEFAULTS_LIMITS.maxEntries,
  `A device may hold at most ${USER_DEFAULTS_LIMITS.maxEntries} user defaults`,
);

/** What every user-defaults call answers: the device's groups after the call, read from its store. */
export const UserDefaultsResponse = z.object({ deviceId: z.string(), groups: UserDefaultsGroups });
export type UserDefaultsResponse = z.infer<typeof UserDefaultsResponse>;

// REST bodies of spec 002 §7 (POST, PUT and DELETE /v1/user-defaults).
export const SetUserDefaultBody = z.strictObject({ deviceId: DeviceId, key: Key, value: UserDefaultValue, name: SuiteName });
export type SetUserDefaultBody = z.infer<typeof SetUserDefaultBody>;
export const RenameUserDefaultBody = z.strictObject({ deviceId: DeviceId, oldKey: Key, newKey: Key, value: UserDefaultValue, name: SuiteName });
export type RenameUserDefaultBody = z.infer<typeof RenameUserDefaultBody>;
export const DeleteUserDefaultBody = z.strictObject({ deviceId: DeviceId, key: Key, name: SuiteName });
export type DeleteUserDefaultBody = z.infer<typeof DeleteUserDefaultBody>;

/**
 * The args of the `user_defaults` device command (docs/protocol.md §6.2). Every operation answers
 * `{groups}`, the whole store after it.
 */
export const UserDefaultsCommandArgs = z.discriminatedUnion('op', [
  z.object({ op: z.literal('list') }),
  z.object({ op: z.literal('set'), name: SuiteName, key: Key, value: UserDefaultValue }),
  /** Deletes `oldKey`, then writes `newKey` (spec 002 §4: a changed key deletes, then updates). */
  z.object({ op: z.literal('rename'), name: SuiteName, oldKey: Key, newKey: Key, value: UserDefaultValue }),
  z.object({ op: z.literal('remove'), name: SuiteName, key: Key }),
]);
export type UserDefaultsCommandArgs = z.infer<typeof UserDefaultsCommandArgs>;

/** The `data` of a `user_defaults` result. */
export const UserDefaultsCommandData = z.object({ groups: UserDefaultsGroups });

/** Device → server (protocol 2): the app changed its user defaults itself. */
export const UserDefaultsChangedFrame = z.object({ type: z.literal('user_defaults_changed'), groups: UserDefaultsGroups });
