import type { DB, Kysely, PayoutProfile } from '@dn/db';
import {
  findPayoutProfile,
  forgetReminder,
  payoutProfilesOf,
  sharingDealers,
  upsertPayoutProfile,
} from '@dn/db/queries/payees';
import { type payoutProfileInput, tinType, W9_CERTIFICATION_VERSION } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { fingerprint, seal } from '../../lib/vault';
import { audit } from '../audit/audit';
import { ringOf } from './keys';

/**
 * A dealer's payout details and W-9 (issue 39; decision 0961): the TIN and account number are
 * sealed (AES-256-GCM) with their last 4 and a keyed hash beside them; nothing returns or logs them.
 */

type Trx = Kysely<DB>;
type Input = z.output<typeof payoutProfileInput>;
type DealerContext = Context & { user: User };

export const last4 = (v: string) => v.replace(/\D/g, '').slice(-4);

/** Issue 45 (decision 1020): a new payout destination is not paid for this long after the change. */
export const DESTINATION_HOLD_MS = 3 * 24 * 60 * 60_000;

/** When a destination changed at `changedAt` is paid (null: it is already). */
export function destinationPayableFrom(changedAt: Date | null | undefined, now: Date): Date | null {
  if (!changedAt) return null;
  const from = new Date(new Date(changedAt).getTime() + DESTINATION_HOLD_MS);
  return from.getTime() > now.getTime() ? from : null;
}

/** The hold's reason, shown in the batch's held list and the portal. */
export const destinationHoldReason = (from: Date) =>
  `payout details changed: the new account is paid from ${from.toISOString().slice(0, 16).replace('T', ' ')} UTC (3 days after the change)`;

/**
 * Why a profile cannot be paid yet, or null when it can. With `now`, a destination changed less than
 * 3 days before is not paid yet either (issue 45).
 */
export function notPayable(
  p:
    | (Pick<PayoutProfile, 'method' | 'routingNumber' | 'accountEnc' | 'returnedAt' | 'returnCode'> & {
        destinationChangedAt?: Date | null;
      })
    | undefined,
  now?: Date,
) {
  if (!p) return 'payout details and W-9 missing';
  if (p.returnedAt) return `the last payment was returned (${p.returnCode}): payout details need updating`;
  if (p.method === 'ach' && (!p.routingNumber || !p.accountEnc)) return 'bank account details missing';
  const from = now ? destinationPayableFrom(p.destinationChangedAt, now) : null;
  if (from) return destinationHoldReason(from);
  return null;
}

/** What the portal shows: never the full TIN or account number. */
export function publicProfile(p: PayoutProfile | undefined, now = new Date()) {
  if (!p) return { complete: false, reason: notPayable(undefined) };
  const address = JSON.parse(p.addressJson) as Record<string, string>;
  return {
    legalName: p.legalName,
    taxClassification: p.taxClassification,
    tinType: p.tinType,
    tinLast4: p.tinLast4,
    address,
    method: p.method,
    routingNumber: p.routingNumber,
    accountLast4: p.accountLast4,
    accountType: p.accountType,
    certifiedName: p.certifiedName,
    certifiedAt: p.certifiedAt.toISOString(),
    certificationVersion: p.certificationVersion,
    complete: notPayable(p) === null,
    reason: notPayable(p, now),
    /** Issue 45: when a changed destination is first paid (null: not waiting). */
    payableFrom: destinationPayableFrom(p.destinationChangedAt, now)?.toISOString() ?? null,
  };
}

export async function getPayoutProfile(ctx: DealerContext) {
  return publicProfile(await findPayoutProfile(ctx.db, ctx.user.id), ctx.clock.now());
}

/**
 * Whether saving `input` over `before` changes where payouts go (issue 45): the method, the routing
 * number or the account number (compared by keyed hash; the number is never opened). A first save
 * changes nothing: there was no destination to redirect.
 */
export function changesDestination(ctx: Context, before: PayoutProfile | undefined, input: Input): boolean {
  if (!before) return false;
  if (before.method !== input.method) return true;
  if (input.method !== 'ach') return false;
  if ((before.routingNumber ?? null) !== (input.routingNumber ?? null)) return true;
  const hash = input.accountNumber
    ? fingerprint(ringOf(ctx.config), 'account', `${input.routingNumber}:${input.accountNumber}`)
    : null;
  return (before.accountHash ?? null) !== hash;
}

/**
 * Saves the details and the W-9 signature (time, IP, user agent, text version) in `trx`; returns
 * the other dealers with the same TIN or bank account (by keyed hash), for the risk signals.
 */
export async function savePayoutProfile(
  trx: Trx,
  ctx: DealerContext,
  input: Input,
  /** when the destination last changed (issue 45): now for a change, else the profile's own */
  destinationChangedAt: Date | null = null,
) {
  const ring = ringOf(ctx.config);
  const now = ctx.clock.now();
  const ach = input.method === 'ach';
  const tinHash = fingerprint(ring, 'tin', input.tin);
  const accountHash =
    ach && input.accountNumber ? fingerprint(ring, 'account', `${input.routingNumber}:${input.accountNumber}`) : null;
  await upsertPayoutProfile(
    trx,
    {
      dealerId: ctx.user.id,
      legalName: input.legalName,
      taxClassification: input.taxClassification,
      tinType: tinType(input.tin),
      tinEnc: seal(ring, input.tin.replace(/\D/g, '')),
      tinLast4: last4(input.tin),
      tinHash,
      addressJson: JSON.stringify(input.address),
      method: input.method,
      routingNumber: ach ? (input.routingNumber ?? null) : null,
      accountEnc: ach && input.accountNumber ? seal(ring, input.accountNumber) : null,
      accountLast4: ach && input.accountNumber ? last4(input.accountNumber) : null,
      accountHash,
      accountType: ach ? (input.accountType ?? null) : null,
      certifiedName: input.signature ?? input.legalName,
      certifiedAt: now,
      certifiedIp: ctx.meta.ip,
      certifiedUa: ctx.meta.userAgent,
      certificationVersion: W9_CERTIFICATION_VERSION,
      destinationChangedAt,
    },
    now,
  );
  await forgetReminder(trx, ctx.user.id);
  await audit(trx, ctx, {
    eventType: 'payee.details_saved',
    category: 'dealer',
    message: `${ctx.user.fullName} saved payout details (${input.method === 'ach' ? 'direct deposit' : 'check'}) and signed the W-9 (${W9_CERTIFICATION_VERSION})`,
    dealerId: ctx.user.id,
    details: {
      method: input.method,
      tinLast4: last4(input.tin),
      accountLast4: ach && input.accountNumber ? last4(input.accountNumber) : null,
      certificationVersion: W9_CERTIFICATION_VERSION,
    },
  });
  return sharingDealers(trx, ctx.user.id, tinHash, accountHash);
}

/**
 * Why each of `dealerIds` cannot be paid at `now` (absent: they can), with their profiles; `waiting`:
 * those whose details are complete but whose new destination is inside its 3 days (issue 45).
 */
export async function payability(db: Trx, dealerIds: readonly string[], now: Date) {
  const profiles = new Map((await payoutProfilesOf(db, dealerIds)).map((p) => [p.dealerId, p]));
  const reasons = new Map<string, string>();
  const waiting = new Set<string>();
  for (const id of dealerIds) {
    const p = profiles.get(id);
    const why = notPayable(p, now);
    if (why) reasons.set(id, why);
    if (why && notPayable(p) === null) waiting.add(id);
  }
  return { profiles, reasons, waiting };
}
