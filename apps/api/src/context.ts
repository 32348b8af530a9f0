/**
 * The request context every service sees, whatever the transport (tRPC, REST, a test's caller).
 * Transport-neutral: the HTTP side builds it in plugins/auth.ts.
 */
import type { AdminRole, DB, Kysely } from '@dn/db';
import type { DealerRecord } from '@dn/db/queries/accounts';
import type { DealerStatus, Tier } from '@dn/schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './env';
import type { RateLimits } from './services/accounts/rate-limit';
import type { MailService } from './services/mail/outbox';

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
  /** Marks this browser as one that signed in to `account` (the device cookie, decision 0630). */
  rememberDevice?(account: string): void;
}

/** Built once at start: everything a request needs that is not about the request. */
export interface Deps {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  mail: MailService;
  limits: RateLimits;
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
