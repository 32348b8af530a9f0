/**
 * The request context every service sees, whatever the transport (tRPC, REST, a test's caller).
 * Transport-neutral: the HTTP side builds it in plugins/auth.ts. It sits below the services
 * (docs/architecture.md): it imports nothing from services/, so the shapes of what it carries
 * (the rate limits, the mailer) are declared here and the services implement them.
 */
import type { AdminRole, DB, Kysely } from '@dn/db';
import type { DealerRecord } from '@dn/db/queries/accounts';
import type { SessionEndReason } from '@dn/db/queries/sessions';
import type { DealerStatus, Tier } from '@dn/schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './env';
import type { Clock } from './lib/clock';

export interface User {
  id: string;
  role: 'admin' | 'dealer';
  username: string;
  fullName: string;
  email: string | null;
  status: DealerStatus | null;
  tier: Tier | null;
  /** An admin's role (owner, reviewer, viewer), read with the session; null for a dealer. */
  adminRole?: AdminRole | null;
  /** A dealer's own record, read with the session in the same statement (see services/users.ts). */
  record?: DealerRecord;
  /**
   * A dealer's affiliate-stats version, read with the session (decision 0790): changes whenever
   * their stats would. Absent when the user was not read with the session (just signed in).
   */
  referralsVersion?: string;
  /**
   * A dealer's jobs version and the deadline of their first open offer, read with the session
   * (decision 1180): what the offers poll and the job list answer 304 from. Absent when the user
   * was not read with the session (just signed in).
   */
  jobsVersion?: { n: string; firstOfferExpiry: Date | null };
  /**
   * An admin's console versions, read with the session (decision 0791): `dealers` changes with every
   * change to the dealers or their links' recruiter ids, `calls` with every change to the call
   * requests. Absent when the user was not read with the session (just signed in).
   */
  adminVersions?: { dealers: string; calls: string };
  /**
   * Set when the request is authenticated by a personal API token (issue 40, decision 0980), not a
   * session: its id and scope. The procedures' first middleware limits what it may call (access.ts).
   */
  token?: { id: string; scope: 'read' | 'read-write' };
}

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  referrer: string | null;
  /** Hash of the session id, for the audit trail; never the id itself. */
  sessionRef: string | null;
  /** The device cookie's account and id when it is ours (decision 0630); absent without HTTP. */
  device?: { account: string; id: string } | null;
}

/** What a service may do to the caller's session, whatever the transport. */
export interface SessionControl {
  signIn(user: { id: string; role: User['role'] }): Promise<void>;
  signOut(): Promise<void>;
  /**
   * Marks this browser as one that signed in to `account` with device id `id` (the device cookie,
   * decision 0630); the service records the id (account_devices) before it calls this.
   */
  rememberDevice?(account: string, id: string): void;
  /** Why this browser's session was ended from elsewhere (a password change...), if it was (issue 36). */
  endedBy?(): SessionEndReason | null;
}

export interface Limit {
  max: number;
  windowSec: number;
}

/**
 * Tight where they protect something: failed sign-ins and anything that sends email. The values
 * are services/accounts/rate-limit.ts's DEFAULT_LIMITS; it counts them.
 */
export interface RateLimits {
  loginPerAccount: Limit;
  loginPerIp: Limit;
  resetPerAccount: Limit;
  resetPerIp: Limit;
  signupPerIp: Limit;
  callPerIp: Limit;
  trackPerIp: Limit;
  /** The referral typeahead: a typist sends a few a minute; a scraper walking prefixes is refused. */
  typeaheadPerIp: Limit;
  /** The same per day, lower than a day of minutes (issue 35): listing the network takes days. */
  typeaheadPerIpDaily: Limit;
  /**
   * Emails an anonymous visitor can have sent to one address (call confirmations, reset links,
   * "application received"), counted per recipient whatever IP asks (decision 0701).
   */
  mailPerRecipient: Limit;
}

/** The outbox's sender as a request sees it; services/mail/outbox.ts's MailService is the one. */
export interface Mailer {
  /** Sends what is due now, without waiting; failures stay queued. */
  kick(): void;
  /** Sends every due message; resolves with how many were handled. */
  flush(): Promise<number>;
  /** Sends what is due every `intervalMs`. */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

/** Built once at start: everything a request needs that is not about the request. */
export interface Deps {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  mail: Mailer;
  limits: RateLimits;
  /** What time it is (lib/clock.ts): the system's, or a test's shifted clock. */
  clock: Clock;
  /**
   * The installation network's seam for the domains below it (issue 45, decision 1002): a service
   * that changed dealers' status or tier (review) calls it in its own transaction, and the open offers
   * of those who may no longer install are withdrawn and passed on at once. services/jobs implements
   * it and app.ts wires it; absent, the `jobs.ineligible-offers` sweep does it within a minute.
   */
  offers?: OfferHooks;
}

export interface OfferHooks {
  withdrawIneligible(trx: Kysely<DB>, dealerIds: readonly string[]): Promise<number>;
}

export interface Context extends Deps {
  user: User | null;
  meta: RequestMeta;
  session: SessionControl;
}

const noSession: SessionControl = {
  signIn: async () => {
    throw new Error('no session in this context');
  },
  signOut: async () => undefined,
};

/** Pure and transport-free, so tests can build a caller without HTTP. */
export function createContextInner(
  deps: Deps,
  opts: { user?: User | null; meta?: Partial<RequestMeta>; session?: SessionControl } = {},
): Context {
  return {
    ...deps,
    user: opts.user ?? null,
    meta: { ip: '127.0.0.1', userAgent: null, referrer: null, sessionRef: null, ...opts.meta },
    session: opts.session ?? noSession,
  };
}
