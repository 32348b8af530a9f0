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

/** Why a profile cannot be paid yet, or null when it can. */
export function notPayable(
  p: Pick<PayoutProfile, 'method' | 'routingNumber' | 'accountEnc' | 'returnedAt' | 'returnCode'> | undefined,
) {
  if (!p) return 'payout details and W-9 missing';
  if (p.returnedAt) return `the last payment was returned (${p.returnCode}): payout details need updating`;
  if (p.method === 'ach' && (!p.routingNumber || !p.accountEnc)) return 'bank account details missing';
  return null;
}

/** What the portal shows: never the full TIN or account number. */
export function publicProfile(p: PayoutProfile | undefined) {
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
    reason: notPayable(p),
  };
}

export async function getPayoutProfile(ctx: DealerContext) {
  return publicProfile(await findPayoutProfile(ctx.db, ctx.user.id));
}

/**
 * Saves the details and the W-9 signature (time, IP, user agent, text version) in `trx`; returns
 * the other dealers with the same TIN or bank account (by keyed hash), for the risk signals.
 */
export async function savePayoutProfile(trx: Trx, ctx: DealerContext, input: Input) {
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

/** Why each of `dealerIds` cannot be paid (absent: they can), with their profiles. */
export async function payability(db: Trx, dealerIds: readonly string[]) {
  const profiles = new Map((await payoutProfilesOf(db, dealerIds)).map((p) => [p.dealerId, p]));
  const reasons = new Map<string, string>();
  for (const id of dealerIds) {
    const why = notPayable(profiles.get(id));
    if (why) reasons.set(id, why);
  }
  return { profiles, reasons };
}
