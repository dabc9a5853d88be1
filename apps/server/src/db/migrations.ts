import type { Kysely, Migration, MigrationProvider } from 'kysely';

/**
 * Migrations are plain Kysely schema-builder code so that the same list runs on SQLite and
 * PostgreSQL. Types are limited to text / integer / bigint, which both engines read alike.
 * Append only: a migration that has shipped is never edited.
 */
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
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
