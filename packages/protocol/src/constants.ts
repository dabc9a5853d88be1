/** Identity the web client sends with every call (spec 000 §7.1). */
export const CLIENT_VERSION = '1.0.83';
export const CLIENT_BUILD = '20250928T103312.799';
export const CLIENT_VERSION_HEADER = 'X-Client-Version';
export const CLIENT_BUILD_HEADER = 'X-Client-Build';

export const PRODUCT_NAME = 'Spyglass';
export const INTERCEPTED_HEADER = `${PRODUCT_NAME}-Intercepted`;

/** API keys: a fixed prefix and 30 random letters and digits (spec 000 §3). */
export const API_KEY_LIVE_PREFIX = 'sg_live_';
export const API_KEY_DEV_PREFIX = 'sg_dev_';
export const API_KEY_RANDOM_LENGTH = 30;

export const FEATURE_FLAGS = ['MOCK_APIS', 'USER_DEFAULTS'] as const;

export const DEVICE_LIMIT = 100;
export const MIN_SDK_VERSION = { ios: '1.4.532', android: '1.0.85' } as const;

export const PASSWORD_MIN_LENGTH = 10;
export const CHANGE_PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';
export const DELETE_ACCOUNT_CONFIRMATION = 'delete my account';

export const SIDEBAR = {
  left: { min: 150, max: 400, default: 220 },
  right: { min: 200, default: 320 },
} as const;

export const TOAST_DURATION_MS = 3000;
export const COPY_INDICATOR_MS = 2000;
export const NEW_DEVICE_ANIMATION_MS = 2500;
export const MOBILE_BREAKPOINT = 768;

export const RESEND_COOLDOWN = { startS: 10, stepS: 10 } as const;

export const WEBSOCKET_BACKOFF = { baseMs: 5000, capMs: 300_000, jitterMs: 1500 } as const;

/** Lifetimes of single-use e-mail links. */
export const VERIFY_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;

/** Upper bounds on free text so that no field can be used to store megabytes. */
export const LIMITS = {
  email: 254,
  password: 200,
  name: 200,
  shortText: 500,
  timezone: 100,
  settingsColumns: 50,
  analyticsEventData: 4096,
} as const;

export const ONBOARDING_COMPANY_SIZES = ['1', '2-5', '6-10', '11-50', '51-200', '201-500', '501-1000', '1000+'] as const;
export const ONBOARDING_ROLES = [
  'developer', 'tech-lead', 'engineering-manager', 'cto', 'founder', 'solo-preneur', 'product-manager',
  'qa-engineer', 'devops', 'mobile-developer', 'frontend-developer', 'backend-developer', 'fullstack-developer', 'other',
] as const;
export const ONBOARDING_SOURCES = [
  'google', 'x', 'friend', 'ai', 'product_hunt', 'reddit', 'github', 'youtube', 'linkedin', 'facebook',
  'instagram', 'tiktok', 'other',
] as const;
export const ONBOARDING_USE_CASES = ['remote_logs', 'mock_requests', 'remote_support', 'debugging', 'analytics', 'other'] as const;

export const ANALYTICS_EVENT_TYPES = [
  'api_key_copied', 'code_snippet_copied', 'download_app_store', 'download_google_play', 'need_help', 'view_full_setup_guide',
] as const;

export const WELCOME_TOURS = {
  BASIC_TUTORIAL: ['Send first Log', 'Take screenshot', 'Open Mobile Debug menu', 'Filter Requests'],
  MOCKING_TUTORIAL: ['Send network request', 'Inspect Payload', 'Enable Mock', 'Modify Response', 'Send request again'],
} as const;

/** The live waiting timer of a request still in flight (spec 001 §9). */
export const WAITING_TIMER = { refreshMs: 100, showAfterMs: 50 } as const;
