import type { DB, Kysely } from '@dn/db';
import { currentAgreement, signaturesOf } from '@dn/db/queries/agreements';
import { complianceOf } from '@dn/db/queries/dealer-compliance';
import { inventoryPaymentsOf, inventorySettings } from '@dn/db/queries/inventory-payments';
import { onboardingCallOf } from '@dn/db/queries/onboarding-calls';
import {
  CALL_TIME_ZONE,
  formatCents,
  ONBOARDING_CALL_BUSINESS_DAYS,
  ONBOARDING_STEPS,
  parseCents,
  type Tier,
  todayIn,
} from '@dn/schema';
import { addBusinessDays } from '../../lib/business-days';

/**
 * The one definition of a dealer's onboarding checklist (issue 38; STYLE 12a): the portal, the
 * admin's dealer view and the list column all read it. Only the steps of the dealer's tier; a step
 * that had been done can become undone (a new agreement version, an expired insurance or licence).
 */

export interface OnboardingDealer {
  id: string;
  tier: Tier;
  approvalDate: Date | null;
}

const cents = (v: string) => parseCents(v) ?? 0n;
const max0 = (c: bigint) => (c > 0n ? c : 0n);

/** The onboarding call's due date: 5 business days after the approval's business day. */
export function callDueBy(approvalDate: Date | null): string | null {
  return approvalDate ? addBusinessDays(todayIn(CALL_TIME_ZONE, approvalDate), ONBOARDING_CALL_BUSINESS_DAYS) : null;
}

export async function onboardingOf(db: Kysely<DB>, dealer: OnboardingDealer, now: Date) {
  const today = todayIn(CALL_TIME_ZONE, now);
  const keys = ONBOARDING_STEPS[dealer.tier];
  const installer = keys.includes('initialInventory');
  const [agreement, signatures, call, compliance, settings, payments] = await Promise.all([
    currentAgreement(db, dealer.tier),
    signaturesOf(db, dealer.id),
    onboardingCallOf(db, dealer.id),
    installer ? complianceOf(db, dealer.id) : undefined,
    installer ? inventorySettings(db) : undefined,
    installer ? inventoryPaymentsOf(db, dealer.id) : undefined,
  ]);

  const signed = signatures.find((s) => s.tier === dealer.tier);
  const callDue = callDueBy(dealer.approvalDate);
  const steps = keys.map((key) => {
    switch (key) {
      case 'agreement':
        return {
          key,
          done: agreement !== undefined && signed?.version === agreement.version,
          version: agreement?.version ?? null,
          signedVersion: signed?.version ?? null,
          signedAt: signed?.signedAt.toISOString() ?? null,
        };
      case 'onboardingCall': {
        const done = call?.status === 'held';
        return {
          key,
          done,
          ...(callDue ? { dueBy: callDue } : {}),
          overdue: !done && callDue !== null && today > callDue,
          call: call
            ? {
                date: call.date,
                time: call.time,
                timeZone: call.timeZone,
                startsAt: call.startsAt.toISOString(),
                status: call.status,
              }
            : null,
        };
      }
      case 'initialInventory': {
        const s = settings?.find((x) => x.tier === dealer.tier);
        const required = cents(s?.inventoryRequired ?? '0');
        const upfront = cents(s?.inventoryUpfront ?? '0');
        const paid = (payments ?? []).reduce((sum, p) => sum + cents(p.amount), 0n);
        return {
          key,
          done: paid >= upfront,
          required: formatCents(required),
          upfront: formatCents(upfront),
          paid: formatCents(paid),
          dueNow: formatCents(max0(upfront - paid)),
          remaining: formatCents(max0(required - paid)),
          payments: (payments ?? []).map((p) => ({
            id: p.id,
            amount: p.amount,
            paidOn: p.paidOn,
            reference: p.reference,
          })),
        };
      }
      case 'insurance':
        return {
          key,
          done: compliance !== undefined && compliance.insuranceExpiresOn >= today,
          expired: compliance !== undefined && compliance.insuranceExpiresOn < today,
          insuranceCertUrl: compliance?.insuranceCertUrl ?? null,
          insurer: compliance?.insurer ?? null,
          expiresOn: compliance?.insuranceExpiresOn ?? null,
        };
      default: // 'license'
        return {
          key,
          done: compliance !== undefined && compliance.licenseExpiresOn >= today,
          expired: compliance !== undefined && compliance.licenseExpiresOn < today,
          licenseNumber: compliance?.licenseNumber ?? null,
          licenseState: compliance?.licenseState ?? null,
          expiresOn: compliance?.licenseExpiresOn ?? null,
        };
    }
  });
  return { tier: dealer.tier, steps, complete: steps.every((s) => s.done) };
}

export type Onboarding = Awaited<ReturnType<typeof onboardingOf>>;
export type OnboardingStep = Onboarding['steps'][number];
