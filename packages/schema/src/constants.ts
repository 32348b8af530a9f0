export const APP_VERSION = '1.7.98';
export const APP_VERSION_STORAGE_KEY = 'app-version';

export const TIERS = ['Affiliate', 'Authorized', 'Preferred'] as const;
export type Tier = (typeof TIERS)[number];
/** Tiers that sell and install: they answer the business-structure and operations questions. */
export const INSTALLER_TIERS: readonly Tier[] = ['Authorized', 'Preferred'];

export const DEALER_STATUSES = ['pending', 'approved', 'rejected', 'active', 'inactive', 'suspended'] as const;
export type DealerStatus = (typeof DEALER_STATUSES)[number];
/** Statuses whose dealers may sign in. */
export const ACTIVE_STATUSES: readonly DealerStatus[] = ['approved', 'active'];

export const ENTITY_TYPES = ['LLC', 'Corporation', 'Partnership', 'Sole Proprietorship', 'Other'] as const;
export const CRM_NAMES = ['HubSpot', 'Salesforce', 'Pipedrive', 'JobTread', 'Custom', 'None', 'Other'] as const;

export const CALL_TIMES = ['morning', 'afternoon', 'evening'] as const;
export type CallTime = (typeof CALL_TIMES)[number];
export const CALL_STATUSES = ['scheduled', 'completed', 'cancelled', 'no_show'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** The business answers calls in this zone; windows and "today" are counted there. */
export const CALL_TIME_ZONE = 'America/New_York';
export const CALL_TIME_ZONE_LABEL = 'Eastern Time (ET)';
export const CALL_WINDOWS: Record<CallTime, { label: string; startHour: number; endHour: number; range: string }> = {
  morning: { label: 'Morning', startHour: 9, endHour: 12, range: '9 AM - 12 PM' },
  afternoon: { label: 'Afternoon', startHour: 12, endHour: 17, range: '12 PM - 5 PM' },
  evening: { label: 'Evening', startHour: 17, endHour: 20, range: '5 PM - 8 PM' },
};
export const CALL_DURATION_MINUTES = 15;

export const VIDEO_KEYS = ['intro_video', 'demo_video'] as const;
export const DEFAULT_VIDEO_TITLES: Record<(typeof VIDEO_KEYS)[number], string> = {
  intro_video: '60-Second Intro Video',
  demo_video: 'Full Product Demo',
};

export const RECRUITER_ID_RE = /^[A-Za-z0-9_-]{3,20}$/;
export const RECRUITER_ID_MESSAGE = 'Recruiter ID must be 3-20 characters, letters, numbers, underscore or dash only';
/** Kept here, free of zod, so the landing page can check a ?r= id without shipping the validator library. */
export const isValidRecruiterId = (v: unknown): v is string => typeof v === 'string' && RECRUITER_ID_RE.test(v);

export const RECRUITER_COOKIE = 'recruiter_id';
export const RECRUITER_COOKIE_DAYS = 30;
export const RECENT_REFERRALS = 5;

/** NIST SP 800-63B's minimum for a memorized secret (issue 35, finding 11; decision 0881). */
export const PASSWORD_MIN = 8;
/** Long enough for any passphrase, short enough that nobody makes the server hash a megabyte. */
export const PASSWORD_MAX = 128;

export const TOKEN_TTL_HOURS = { setup: 72, reset: 1, admin_invite: 72 } as const;

/**
 * Most calls one /trpc batch may carry (decision 0630): the server refuses more, the web client
 * splits its batches at it. A batch is one HTTP request: uncapped, it could queue hundreds of calls.
 */
export const TRPC_MAX_BATCH = 10;

/** Polling intervals of SPEC section 9, in milliseconds. */
export const POLL_MS = {
  affiliateStats: 5_000,
  dealerInfo: 10_000,
  adminDealers: 10_000,
  adminMetrics: 10_000,
  affiliateTracking: 5_000,
  callSchedules: 15_000,
  landingVideos: 30_000,
  // The console's operator views (issues 38 and 40, and 36's webhook screen); the System page's
  // samples are 5 minutes apart, its queues move faster.
  adminSystem: 30_000,
  adminScheduler: 30_000,
  adminWebhook: 15_000,
} as const;

export const STALE_TIME_MS = 5 * 60_000;
export const USER_STALE_TIME_MS = 10 * 60_000;
export const WIZARD_CLOSE_DELAY_MS = 2_000;
export const FORM_PREVIEW_HEIGHT = 300;
export const ORDER_FORM_HEIGHT = 600;
export const DATE_FORMAT = 'MMM D, YYYY';

export const ADMIN_DEALERS_PAGE_SIZE = 50;
/**
 * A search of the admin's dealer table is answered from at most this many of its newest matches
 * (decision 0792): counted, sorted and paged within them, so a broad search costs the same at any
 * size of the network. Beyond it the table says so and asks for a narrower search.
 */
export const ADMIN_SEARCH_WINDOW = 1_000;
export const DEALER_SORTS = ['createdAt', 'fullName', 'companyName', 'email', 'tier', 'status'] as const;
