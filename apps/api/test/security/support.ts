import { randomUUID } from 'node:crypto';
import { sql } from '@dn/db';
import { BUSINESS_TABLES } from '@dn/db/testing';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Access, HttpRoute } from '../../src/http/routes';
import { restRoutes } from '../../src/http/routes';
import { appRouter } from '../../src/routers/index';
import { type AdminRole, adminProcedure, authedProcedure, dealerProcedure, type Meta } from '../../src/trpc/init';
import type { Harness, TestApp } from '../helpers';

/**
 * The live route tables, read at test time so endpoints added later are attacked too:
 * REST from `restRoutes`, tRPC from `appRouter._def.procedures`.
 */

export type ProcAccess = Access | 'signed-in';

export interface Proc {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  access: ProcAccess;
  /** For an admin procedure: the least role it declares (meta.role, set by its builder). */
  role?: AdminRole;
  hasInput: boolean;
}

interface ProcDef {
  _def: { type: Proc['type']; middlewares: unknown[]; inputs: unknown[]; meta?: Meta };
}

const lastMiddleware = (p: unknown) => (p as ProcDef)._def.middlewares.at(-1);
const ADMIN_MW = lastMiddleware(adminProcedure);
const DEALER_MW = lastMiddleware(dealerProcedure);
const AUTHED_MW = lastMiddleware(authedProcedure);

/** A procedure's access, told by the middlewares it was built from (not by its name). */
export function procedures(): Proc[] {
  const all = appRouter._def.procedures as unknown as Record<string, ProcDef>;
  return Object.entries(all).map(([path, p]) => {
    const mws = p._def.middlewares;
    const access: ProcAccess = mws.includes(ADMIN_MW)
      ? 'admin'
      : mws.includes(DEALER_MW)
        ? 'dealer'
        : mws.includes(AUTHED_MW)
          ? 'signed-in'
          : 'public';
    const role = access === 'admin' ? p._def.meta?.role : undefined;
    return { path, type: p._def.type, access, ...(role ? { role } : {}), hasInput: p._def.inputs.length > 0 };
  });
}

export const routes = (): HttpRoute[] => restRoutes;

/** A value for each path parameter: a real id when given, else a well-formed random one. */
export function urlOf(route: HttpRoute, params: Record<string, string> = {}): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) => {
    if (params[name]) return encodeURIComponent(params[name]);
    if (/tier/i.test(name)) return 'Affiliate';
    if (/key/i.test(name)) return 'intro_video';
    return randomUUID();
  });
}

export function inject(
  app: TestApp,
  route: HttpRoute,
  opts: Partial<InjectOptions> & { params?: Record<string, string> } = {},
) {
  const { params, ...rest } = opts;
  return app.inject({ method: route.method, url: urlOf(route, params), ...rest } as InjectOptions);
}

/** One tRPC call over HTTP, as the web client sends it (no transformer). */
export function trpc(
  app: TestApp,
  proc: Pick<Proc, 'path' | 'type'>,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  if (proc.type === 'query') {
    const q = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return app.inject({ method: 'GET', url: `/trpc/${proc.path}${q}`, headers });
  }
  return app.inject({
    method: 'POST',
    url: `/trpc/${proc.path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: input === undefined ? '' : JSON.stringify(input),
  });
}

/** Tables whose content a refused or malformed request must leave as it was. */
const WATCHED = [...BUSINESS_TABLES, 'admin_invitations', 'email_outbox'];

/** A digest of every watched table's rows: equal digests, nothing stored or changed. */
export async function fingerprint(db: Harness['db']): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of WATCHED) {
    const r = await sql<{ d: string | null; n: string }>`
      select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d, count(*)::text as n
      from ${sql.table(table)} t`.execute(db);
    out[table] = `${r.rows[0]?.n}:${r.rows[0]?.d}`;
  }
  return out;
}

export const FOREIGN_ORIGIN = 'https://evil.example';

/** A valid application for POST /api/dealer-signup. */
export function application(email: string, over: Record<string, unknown> = {}) {
  return {
    tier: 'Affiliate',
    fullName: 'Signup Tester',
    companyName: 'Tester Co',
    email,
    phoneE164: '5125550100',
    addressJson: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
    referredBy: 'none',
    onboardingCallOk: true,
    ...over,
  };
}

/** A valid call booking for POST /api/schedule-call (a date safely in the future). */
export function booking(email: string, over: Record<string, unknown> = {}) {
  const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  return { name: 'Call Tester', email, phone: '5125550100', preferredDate: date, preferredTime: 'morning', ...over };
}
