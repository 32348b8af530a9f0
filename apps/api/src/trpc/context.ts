// The request decorations (loadUser, meta, sessionControl) are declared by the auth plugin.

import type { DB, Kysely } from '@dn/db';
import type { DealerStatus, Tier } from '@dn/schema';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../env';
import type {} from '../plugins/auth';
import type { MailService } from '../services/mail';
import type { RateLimits } from '../services/rate-limit';
import type { DealerRecord } from '../services/users';

export interface User {
  id: string;
  role: 'admin' | 'dealer';
  username: string;
  fullName: string;
  email: string | null;
  status: DealerStatus | null;
  tier: Tier | null;
  /** A dealer's own record, read with the session in the same statement (see services/users.ts). */
  record?: DealerRecord;
}

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  referrer: string | null;
  /** Hash of the session id, for the audit trail; never the id itself. */
  sessionRef: string | null;
}

/** What a service may do to the caller's session, whatever the transport. */
export interface SessionControl {
  signIn(user: { id: string; role: User['role'] }): Promise<void>;
  signOut(): Promise<void>;
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

/** The context of one HTTP request (tRPC and REST alike). */
export async function createRequestContext(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<Context> {
  const user = await req.loadUser();
  return createContextInner(deps, {
    user,
    meta: req.meta(),
    session: req.sessionControl(reply),
  });
}
