import path from 'node:path';
import { loadIngestLimits, type IngestLimits } from './ingest/ingest-limits';
import type { HttpLimits } from './plugins/http-limits';
import type { S3BlobConfig } from './blobs/s3-blob-store';
import type { AuthRateLimits } from './plugins/rate-limit';
import type { SessionLimits } from './services/session-saves.service';
import { MIN_SDK_VERSION } from '@spyglass/protocol';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://` switches storage to PostgreSQL; otherwise SQLite under `dataDir`. */
  databaseUrl: string | null;
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  googleClientId: string | null;
  googleJwksUrl: string;
  logLevel: string;
  nodeEnv: string;
  demoMode: boolean;
  /** Whether new accounts get the sample device 1-demo (SAMPLE_DEVICE, on unless 0). Demo accounts always do. */
  sampleDevice: boolean;
  /** Hours a demo account lives before the cleanup job deletes it (DEMO_USER_TTL_HOURS). */
  demoUserTtlHours: number;
  bookDemoUrl: string | null;
  /** Store pages of the companion app, shown on the connect screen only when set. */
  appStoreUrl: string | null;
  googlePlayUrl: string | null;
  /** Requests per minute allowed on the auth endpoints, per client IP and per e-mail address. */
  authRateLimit: AuthRateLimits;
  /** Sign-in tokens end after this long unused, and this long after the sign-in whatever their use (0: never). */
  authTokens: { idleTimeoutMs: number; maxAgeMs: number };
  /** Caps on saved sessions (services/session-saves.service.ts). */
  sessionLimits: SessionLimits;
  bodyLimitBytes: number;
  /** Timeouts and the per-address connection cap of both HTTP hosts. */
  http: HttpLimits;
  serverVersion: string;
  /**
   * Which proxies may set X-Forwarded-For (Fastify's `trustProxy`): off by default, so that a
   * client cannot pick its own IP and slip past the per-IP rate limit. `true`, or a
   * comma-separated list of proxy addresses/CIDRs, when the server runs behind a load balancer.
   */
  trustProxy: boolean | string;
  /** `redis://` makes the live bus go through Redis pub/sub, so that several nodes serve one account. */
  redisUrl: string | null;
  /** Blobs in an S3-compatible bucket (S3_BUCKET set), shared by every node; null: files under `dataDir`. */
  s3: S3BlobConfig | null;
  /** The relays handed to screen capture peers (GET /v1/screen-capture/turn). */
  screenCapture: ScreenCaptureRelays;
  /** Frame sizes, rates and heartbeats of the device connections. */
  ingest: IngestLimits;
  /** Latest released mobile SDKs, answered by /v1/version/{ios,android}-sdk-version. */
  latestSdkVersions: { ios: string; android: string };
  /** Port of the public share host (shared sessions only); 0 picks a free one. */
  sharePort: number;
  /** Base URL of the share host, the start of every session's `shareUrl`. */
  shareUrl: string;
  /** Days live items and sessions are kept (self-hosted free plan); the retention job removes older ones. */
  retentionDays: number;
  /** Hosted billing (STRIPE_SECRET_KEY set); null: self-hosted, every account a free user. */
  stripe: StripeConfig | null;
  /** JSON file with the plans and special offers (BILLING_PLANS_FILE); null: the built-in plans. */
  plansFile: string | null;
  /** The admin area (spec 000 §2.7, §6). */
  admin: AdminConfig;
}

export interface AdminConfig {
  /** ADMIN_EMAILS: the accounts made admins at start-up and when they verify a listed address; every other account is not one. */
  emails: string[];
  /** ADMIN_TEST_EMAIL_DOMAINS: accounts at these domains are test users, left out of the admin list by default. */
  testEmailDomains: string[];
  /** ADMIN_TEST_EMAIL_MARKER: an e-mail containing it is a test account (empty: none). Never shown in the page. */
  testEmailMarker: string | null;
}

function list(raw: string | undefined, fallback: string[]): string[] {
  if (raw === undefined) return fallback;
  return raw.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
}

export interface StripeConfig {
  secretKey: string;
  /** Signing secret of the webhook endpoint (`whsec_...`); webhooks are refused without it. */
  webhookSecret: string | null;
  /** Another Stripe API base (a stand-in in tests); null: Stripe's own. */
  apiUrl: string | null;
}

type Env = Record<string, string | undefined>;

const HOUR_MS = 60 * 60 * 1000;

function int(env: Env, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${key} must be a non-negative integer, got "${raw}"`);
  return n;
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

function s3Config(env: Env): S3BlobConfig | null {
  const bucket = env.S3_BUCKET;
  if (!bucket) {
    if (env.S3_ENDPOINT) throw new Error('S3_ENDPOINT is set without S3_BUCKET: name the bucket that holds the blobs');
    return null;
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const endpoint = env.S3_ENDPOINT || null;
  return {
    endpoint,
    bucket,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    // S3-compatible servers mostly want the bucket in the path; AWS itself takes either.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : endpoint !== null,
  };
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env, 'PORT', 8080);
  // A server on a random port (tests) gets a random share port too, unless SHARE_PORT says otherwise.
  const sharePort = int(env, 'SHARE_PORT', port === 0 ? 0 : 8081);
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite file)');
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Spyglass <no-reply@spyglass.local>',
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleJwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
    logLevel: env.LOG_LEVEL || 'info',
    nodeEnv: env.NODE_ENV || 'production',
    demoMode: env.DEMO_MODE === '1',
    sampleDevice: env.SAMPLE_DEVICE !== '0',
    demoUserTtlHours: int(env, 'DEMO_USER_TTL_HOURS', 24),
    bookDemoUrl: env.BOOK_DEMO_URL || null,
    appStoreUrl: env.APP_STORE_URL || null,
    googlePlayUrl: env.GOOGLE_PLAY_URL || null,
    authRateLimit: {
      perIp: int(env, 'AUTH_RATE_LIMIT_PER_IP', 60),
      perEmail: int(env, 'AUTH_RATE_LIMIT_PER_EMAIL', 10),
      windowS: 60,
      emailChangesPerHour: int(env, 'AUTH_EMAIL_CHANGES_PER_HOUR', 5),
    },
    authTokens: {
      idleTimeoutMs: int(env, 'AUTH_TOKEN_IDLE_HOURS', 7 * 24) * HOUR_MS,
      maxAgeMs: int(env, 'AUTH_TOKEN_MAX_AGE_HOURS', 30 * 24) * HOUR_MS,
    },
    sessionLimits: {
      maxPerAccount: int(env, 'SESSIONS_MAX_PER_ACCOUNT', 1000),
      maxItemsPerAccount: int(env, 'SESSION_ITEMS_MAX_PER_ACCOUNT', 2_000_000),
      maxConcurrentSaves: int(env, 'SESSION_SAVES_MAX_CONCURRENT', 4),
    },
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    http: {
      requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 60_000),
      headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 15_000),
      idleTimeoutMs: int(env, 'HTTP_IDLE_TIMEOUT_MS', 120_000),
      // Behind a proxy every client shares the proxy's address: the cap is then the proxy's job.
      maxConnectionsPerIp: int(env, 'MAX_CONNECTIONS_PER_IP', trustProxy(env.TRUST_PROXY) === false ? 256 : 0),
    },
    serverVersion: env.npm_package_version || '1.0.0',
    trustProxy: trustProxy(env.TRUST_PROXY),
    redisUrl: env.REDIS_URL || null,
    s3: s3Config(env),
    screenCapture: {
      stunUrls: urlList(env.STUN_URLS),
      turnUrls: urlList(env.TURN_URLS),
      turnSecret: env.TURN_SECRET || null,
      turnCredentialTtlS: int(env, 'TURN_CREDENTIAL_TTL_S', 3600),
    },
    ingest: loadIngestLimits(env),
    latestSdkVersions: {
      ios: env.LATEST_IOS_SDK_VERSION || MIN_SDK_VERSION.ios,
      android: env.LATEST_ANDROID_SDK_VERSION || MIN_SDK_VERSION.android,
    },
    sharePort,
    shareUrl: (env.SHARE_URL || `http://localhost:${sharePort}`).replace(/\/+$/, ''),
    retentionDays: int(env, 'RETENTION_DAYS', 30),
    stripe: env.STRIPE_SECRET_KEY
      ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET || null, apiUrl: env.STRIPE_API_URL || null }
      : null,
    plansFile: env.BILLING_PLANS_FILE || null,
    admin: {
      emails: list(env.ADMIN_EMAILS, []),
      // The domains RFC 2606 reserves for examples and tests: no real customer has them.
      testEmailDomains: list(env.ADMIN_TEST_EMAIL_DOMAINS, ['example.com', 'example.net', 'example.org']),
      testEmailMarker: (env.ADMIN_TEST_EMAIL_MARKER ?? '+test').trim().toLowerCase() || null,
    },
    ...overrides,
  };
}

export interface ScreenCaptureRelays {
  stunUrls: string[];
  turnUrls: string[];
  /** coturn's `static-auth-secret`: TURN credentials are derived from it; it never leaves the server. */
  turnSecret: string | null;
  /** How long the TURN credentials handed out stay valid. */
  turnCredentialTtlS: number;
}

/** A comma-separated list of ICE server URLs (`stun:host:3478`, `turn:host:3478?transport=udp`). */
function urlList(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((url) => url.trim()).filter((url) => url !== '');
}
