import type { DB, Kysely } from '@dn/db';
import { type AuditLogRow, insertAuditLog } from '@dn/db/queries/audit-logs';
import type { RequestMeta, User } from '../../context';

export interface AuditEntry {
  /** Dotted past tense: dealer.approved, affiliate_link.created. */
  eventType: string;
  category: 'admin' | 'auth' | 'dealer' | 'affiliate' | 'signup' | 'call' | 'email' | 'system';
  message: string;
  dealerId?: string | null;
  recruiterId?: string | null;
  details?: Record<string, unknown>;
  success?: boolean;
  errorMessage?: string | null;
  clientHash?: string | null;
}

/** Writes one audit row; call it with the transaction that makes the change. */
export async function audit(
  db: Kysely<DB>,
  who: { user?: User | null; meta: RequestMeta },
  e: AuditEntry,
): Promise<void> {
  await insertAuditLog(db, auditRow(who, e));
}

/**
 * The row `audit` writes; a batch of them is written in one statement by services/review. Who did
 * it (actor), from where (IP) and with what (user agent) come from the request context only: the
 * actor's keys are written after the entry's details, so no detail can stand in for them (issue 35,
 * finding 9). A caller's own words go under `details.client` (services/affiliate/tracking.ts).
 */
export function auditRow(who: { user?: User | null; meta: RequestMeta }, e: AuditEntry): AuditLogRow {
  const actor = who.user ? { actorId: who.user.id, actorRole: who.user.role, actor: who.user.username } : {};
  return {
    eventType: e.eventType,
    category: e.category,
    message: e.message,
    dealerId: e.dealerId ?? null,
    recruiterId: e.recruiterId ?? null,
    details: JSON.stringify({ ...e.details, ...actor }),
    success: e.success ?? true,
    errorMessage: e.errorMessage ?? null,
    clientHash: e.clientHash ?? null,
    sessionId: who.meta.sessionRef,
    userAgent: who.meta.userAgent?.slice(0, 512) ?? null,
    ipAddress: who.meta.ip,
    referrer: who.meta.referrer?.slice(0, 2048) ?? null,
    userAgentParsed: JSON.stringify(parseUserAgent(who.meta.userAgent)),
  };
}

/** A coarse reading of the user agent: enough to tell a phone from a desktop in the trail. */
export function parseUserAgent(ua: string | null): { browser: string; os: string; mobile: boolean } | null {
  if (!ua) return null;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Other';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'Other';
  return { browser, os, mobile: /Mobi|Android|iPhone/.test(ua) };
}
