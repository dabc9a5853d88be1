import type { Generated } from 'kysely';

/**
 * Column conventions shared by both engines: booleans are 0/1 integers, instants are
 * milliseconds since the epoch (bigint, parsed to number), structured values are JSON text.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  auth_provider: 'email' | 'google';
  email_verified: number;
  api_key: string;
  is_admin: Generated<number>;
  is_locked: Generated<number>;
  is_demo: number;
  should_block_requests: Generated<number>;
  onboarding_completed: Generated<number>;
  load_balancer_group: string | null;
  settings: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  company_size: string | null;
  role: string | null;
  signup_source: string | null;
  signup_usecases: Generated<string>;
  timezone: string | null;
  referrer: string | null;
  created_at: number;
  updated_at: number;
  is_free_user: Generated<number>;
}

export interface AuthTokensTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  /** usage_report: the weekly report's unsubscribe link. */
  kind: 'verify' | 'reset' | 'change_email' | 'usage_report';
  expires_at: number;
  used_at: number | null;
  created_at: number;
  /** The address a `change_email` link moves the account to. */
  new_email: Generated<string | null>;
}

export interface WelcomeToursTable {
  user_id: string;
  tour_id: string;
  steps: string;
  updated_at: number;
}

export interface AnalyticsEventsTable {
  id: string;
  user_id: string;
  event_type: string;
  event_data: string;
  created_at: number;
}

export interface DevicesTable {
  id: string;
  user_id: string;
  platform: string;
  /** DeviceInfo JSON as last reported by the device. */
  info: string;
  name_override: string | null;
  group_override: string | null;
  /** FeatureToggles JSON. */
  feature_toggles: string;
  breakpoint_enabled: Generated<number>;
  online: Generated<number>;
  last_seen: number;
  /** The last display number given to an item of this device. */
  last_num: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface ItemsTable {
  user_id: string;
  device_id: string;
  id: string;
  num: number;
  type: string;
  level: string | null;
  method: string | null;
  url: string | null;
  status: number | null;
  duration: number | null;
  size: number;
  sent_at: number | null;
  created_at: number;
  updated_at: number;
  tags: Generated<string>;
  notes: string | null;
  is_mocked: Generated<number>;
  mock: string | null;
  mock_data: string | null;
  meta_data: string | null;
  /** Details JSON without bodies and screenshot image. */
  details: string;
  /** Inline body, or the preview of a body kept in the blob named beside it. */
  request_body: string | null;
  request_body_blob: string | null;
  response_body: string | null;
  response_body_blob: string | null;
  image_blob: string | null;
}

export interface TrafficUsageTable {
  user_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  bytes: number;
  items: number;
}

export interface TrafficHoursTable {
  user_id: string;
  /** Epoch ms of the UTC hour's start. */
  hour: number;
  bytes: number;
  items: number;
}

export interface QuotaAlertsTable {
  user_id: string;
  period_start: number;
  sent_at: number;
}

export interface JobRunsTable {
  job: string;
  period: string;
  started_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  device_id: string;
  name: string;
  is_shared: Generated<number>;
  /** SessionDevice JSON, a snapshot taken when the session was saved. */
  device: string;
  item_count: number;
  created_at: number;
  updated_at: number;
}

/** A copy of an item row; `num` is the item's position in the session (1 = oldest). */
export interface SessionItemsTable extends ItemsTable {
  session_id: string;
}

export interface MockedRoutesTable {
  id: string;
  user_id: string;
  device_id: string;
  is_enabled: number;
  /** JSON list of text. */
  tags: string;
  description: string;
  are_live_updates_enabled: number;
  /** Copies of mockData.method and mockData.mockedUrl, for sorting. */
  method: string;
  mocked_url: string;
  /** MockData JSON. */
  mock_data: string;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionsTable {
  user_id: string;
  plan: 'free' | 'team' | 'pro' | 'enterprise';
  status: 'active' | 'trialing' | 'canceled' | 'expired';
  billing_cycle: 'monthly' | 'yearly' | null;
  period_start: number | null;
  period_end: number | null;
  trial_ends_at: number | null;
  canceled_at: number | null;
  cancel_reason: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: number;
}

export interface Database {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  email_tokens: EmailTokensTable;
  welcome_tours: WelcomeToursTable;
  analytics_events: AnalyticsEventsTable;
  devices: DevicesTable;
  items: ItemsTable;
  traffic_usage: TrafficUsageTable;
  traffic_hours: TrafficHoursTable;
  quota_alerts: QuotaAlertsTable;
  job_runs: JobRunsTable;
  sessions: SessionsTable;
  session_items: SessionItemsTable;
  mocked_routes: MockedRoutesTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
}
