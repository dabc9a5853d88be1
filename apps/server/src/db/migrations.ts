import type { CreateTableBuilder, Kysely, Migration, MigrationProvider } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

/**
 * Migrations are plain Kysely schema-builder code so that the same list runs on SQLite and
 * PostgreSQL. Types are limited to text / integer / bigint, which both engines read alike.
 * Append only: a migration that has shipped is never edited.
 */
/** A session item with a blob file; the predicate of a partial index, repeated as is by the queries that use it. */
export const SESSION_ITEM_HAS_BLOB = 'request_body_blob is not null or response_body_blob is not null or image_blob is not null';

/**
 * The columns of a captured item after its owner and device, in the order 0002 created them for
 * `items` (0003 copies them into `session_items`, 0005 rebuilds `items`): written once so that the
 * three tables cannot drift apart.
 */
function itemFields<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('num', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('method', 'text')
    .addColumn('url', 'text')
    .addColumn('status', 'integer')
    .addColumn('duration', 'double precision')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('notes', 'text')
    .addColumn('is_mocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mock', 'text')
    .addColumn('mock_data', 'text')
    .addColumn('meta_data', 'text')
    // The details without bodies and image: what the list needs.
    .addColumn('details', 'text', (c) => c.notNull())
    // A body is either inline (<= 64 KB) or a preview here plus a blob key beside it.
    .addColumn('request_body', 'text')
    .addColumn('request_body_blob', 'text')
    .addColumn('response_body', 'text')
    .addColumn('response_body_blob', 'text')
    .addColumn('image_blob', 'text');
}

const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('auth_provider', 'text', (c) => c.notNull())
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('api_key', 'text', (c) => c.notNull().unique())
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('should_block_requests', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('onboarding_completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('load_balancer_group', 'text')
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('company', 'text')
        .addColumn('company_size', 'text')
        .addColumn('role', 'text')
        .addColumn('signup_source', 'text')
        .addColumn('signup_usecases', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('timezone', 'text')
        .addColumn('referrer', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.createTable('auth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_tokens_user').on('auth_tokens').column('user_id').execute();

      await db.schema.createTable('email_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_tokens_user').on('email_tokens').column('user_id').execute();

      await db.schema.createTable('welcome_tours')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tour_id', 'text', (c) => c.notNull())
        .addColumn('steps', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('welcome_tours_pk', ['user_id', 'tour_id'])
        .execute();

      await db.schema.createTable('analytics_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('event_data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('analytics_events_user').on('analytics_events').column('user_id').execute();
    },
  },
  '0002_devices_items': {
    async up(db: Kysely<unknown>) {
      // Device ids are chosen by the SDK (a stable install id) and global: a hello with an id
      // that belongs to another account is refused rather than silently forked.
      await db.schema.createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('platform', 'text', (c) => c.notNull())
        // What the device reports about itself (DeviceInfo JSON), replaced on every hello.
        .addColumn('info', 'text', (c) => c.notNull())
        // Set from the dashboard; they win over what the device reports.
        .addColumn('name_override', 'text')
        .addColumn('group_override', 'text')
        .addColumn('feature_toggles', 'text', (c) => c.notNull())
        .addColumn('breakpoint_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('last_num', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('devices_user').on('devices').columns(['user_id', 'last_seen']).execute();

      await db.schema.createTable('items')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .$call(itemFields)
        .addPrimaryKeyConstraint('items_pk', ['device_id', 'id'])
        .execute();
      await db.schema.createIndex('items_device_num').on('items').columns(['device_id', 'num']).execute();
      await db.schema.createIndex('items_user_id').on('items').columns(['user_id', 'id']).execute();

      // Traffic received per account and UTC day, for quotas and usage reports.
      await db.schema.createTable('traffic_usage')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('items', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('traffic_usage_pk', ['user_id', 'day'])
        .execute();
    },
  },
  '0003_sessions': {
    async up(db: Kysely<unknown>) {
      // No foreign key to devices: a session outlives its device (it keeps a snapshot of it).
      await db.schema.createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_shared', 'integer', (c) => c.notNull().defaultTo(0))
        // SessionDevice JSON: name, app version, platform... as they were when the session was saved.
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('item_count', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_created').on('sessions').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('sessions_created').on('sessions').column('created_at').execute();

      // Copies of the items' rows (see docs/architecture.md, Sessions): the live items may be
      // cleared, deleted or expire while the session stays complete. `num` is the position in
      // the session, 1 for the oldest item. Blob keys point at the session's own blob files.
      await db.schema.createTable('session_items')
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .$call(itemFields)
        .addPrimaryKeyConstraint('session_items_pk', ['session_id', 'num'])
        .execute();
      await db.schema.createIndex('session_items_id').on('session_items').columns(['session_id', 'id']).unique().execute();
      // The few rows with blob files (large bodies, screenshots), found without reading the others.
      await db.schema.createIndex('session_items_blobs').on('session_items').column('session_id')
        .where(sql.raw<boolean>(SESSION_ITEM_HAS_BLOB)).execute();
    },
  },
  '0004_mocked_routes': {
    async up(db: Kysely<unknown>) {
      // mock_data is the MockData JSON; method and mocked_url repeat two of its fields so that the
      // list can be sorted by them in SQL.
      await db.schema.createTable('mocked_routes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('are_live_updates_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('mocked_url', 'text', (c) => c.notNull())
        .addColumn('mock_data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mocked_routes_device').on('mocked_routes').columns(['user_id', 'device_id', 'created_at']).execute();
      // The device's item mocks are looked up on every connect: only mocked items are indexed.
      await db.schema.createIndex('items_mocked').on('items').columns(['user_id', 'device_id'])
        .where(sql.ref('is_mocked'), '=', 1).execute();
    },
  },
  '0005_device_per_account': {
    // A device is the pair (account, install id), so one phone may be a device of several
    // accounts, each with its own items and mocks (this replaces 0002's global device ids).
    // Neither engine changes a primary key in place the same way, so devices, items and
    // mocked_routes are rebuilt: copies first, then the old tables dropped children first
    // (nothing cascades onto the copies), then the copies renamed (SQLite rewrites the copies'
    // foreign keys to the new names; PostgreSQL keeps them by oid).
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('devices_v5')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('info', 'text', (c) => c.notNull())
        .addColumn('name_override', 'text')
        .addColumn('group_override', 'text')
        .addColumn('feature_toggles', 'text', (c) => c.notNull())
        .addColumn('breakpoint_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('last_num', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('devices_owner_pk', ['user_id', 'id'])
        .execute();

      await db.schema.createTable('items_v5')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .$call(itemFields)
        .addPrimaryKeyConstraint('items_owner_pk', ['user_id', 'device_id', 'id'])
        .addForeignKeyConstraint('items_device_fk', ['user_id', 'device_id'], 'devices_v5', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
        .execute();

      await db.schema.createTable('mocked_routes_v5')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('are_live_updates_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('mocked_url', 'text', (c) => c.notNull())
        .addColumn('mock_data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('mocked_routes_device_fk', ['user_id', 'device_id'], 'devices_v5', ['user_id', 'id'], (fk) => fk.onDelete('cascade'))
        .execute();

      await sql`insert into devices_v5 select user_id, id, platform, info, name_override, group_override, feature_toggles,
        breakpoint_enabled, online, last_seen, last_num, created_at, updated_at from devices`.execute(db);
      await sql`insert into items_v5 select user_id, device_id, id, num, type, level, method, url, status, duration, size, sent_at,
        created_at, updated_at, tags, notes, is_mocked, mock, mock_data, meta_data, details, request_body, request_body_blob,
        response_body, response_body_blob, image_blob from items`.execute(db);
      await sql`insert into mocked_routes_v5 select id, user_id, device_id, is_enabled, tags, description, are_live_updates_enabled,
        method, mocked_url, mock_data, created_at, updated_at from mocked_routes`.execute(db);

      await db.schema.dropTable('items').execute();
      await db.schema.dropTable('mocked_routes').execute();
      await db.schema.dropTable('devices').execute();
      await db.schema.alterTable('devices_v5').renameTo('devices').execute();
      await db.schema.alterTable('items_v5').renameTo('items').execute();
      await db.schema.alterTable('mocked_routes_v5').renameTo('mocked_routes').execute();

      await db.schema.createIndex('devices_user').on('devices').columns(['user_id', 'last_seen']).execute();
      await db.schema.createIndex('items_device_num').on('items').columns(['user_id', 'device_id', 'num']).execute();
      await db.schema.createIndex('items_user_id').on('items').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('items_mocked').on('items').columns(['user_id', 'device_id'])
        .where(sql.ref('is_mocked'), '=', 1).execute();
      await db.schema.createIndex('mocked_routes_device').on('mocked_routes').columns(['user_id', 'device_id', 'created_at']).execute();
    },
  },
  '0006_account_security': {
    // An e-mail change waits for the link mailed to the new address: the link's row holds it.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('email_tokens').addColumn('new_email', 'text').execute();
    },
  },
  '0008_billing': {
    async up(db: Kysely<unknown>) {
      // Set by an operator in hosted mode: the account uses the product free of charge.
      await db.schema.alterTable('users').addColumn('is_free_user', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // One row per account once it chose a plan or met the payment provider; before that the
      // account is in its trial, derived from users.created_at.
      await db.schema.createTable('subscriptions')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('billing_cycle', 'text')
        .addColumn('period_start', 'bigint')
        .addColumn('period_end', 'bigint')
        .addColumn('trial_ends_at', 'bigint')
        .addColumn('canceled_at', 'bigint')
        .addColumn('cancel_reason', 'text')
        .addColumn('stripe_customer_id', 'text', (c) => c.unique())
        .addColumn('stripe_subscription_id', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // Webhook events already applied, so that a delivery repeated by the provider (or replayed
      // by anyone) changes nothing.
      await db.schema.createTable('billing_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0010_admin': {
    // The admin list's default order (newest accounts first) reads the first page off this index
    // instead of sorting every account.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
    },
  },
  '0012_usage': {
    async up(db: Kysely<unknown>) {
      // Traffic per account and UTC hour (epoch ms of the hour's start): the usage chart and the
      // weekly report read it; the daily table stays what period totals and quotas sum.
      await db.schema.createTable('traffic_hours')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('items', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('traffic_hours_pk', ['user_id', 'hour'])
        .execute();
      // The 80 % quota alert mailed for a billing period: its row makes it once per period on every node.
      await db.schema.createTable('quota_alerts')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('period_start', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('quota_alerts_pk', ['user_id', 'period_start'])
        .execute();
      // A scheduled job's run for one period (the weekly report's ISO week): the node that inserts
      // the row runs it, the others see the conflict and skip.
      await db.schema.createTable('job_runs')
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_runs_pk', ['job', 'period'])
        .execute();
    },
  },
  '0013_items_device_check': {
    // PostgreSQL checked the foreign key from every ingested item to its device with a trigger,
    // a quarter of the server's work per item in EXPLAIN (ANALYZE); ingest now locks the commit's
    // devices once (FOR KEY SHARE) and deleting a device or an account deletes its items itself.
    // SQLite keeps its constraint: its check is a probe of the devices' primary key, not
    // measurable beside the insert, and dropping it would mean rebuilding the table.
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table items drop constraint items_device_fk`.execute(db);
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
