import type { DB, Kysely } from '@dn/db';
import { currentAgreement, signaturesOf } from '@dn/db/queries/agreements';
import { type ComplianceDocumentSummary, complianceDocumentsOf } from '@dn/db/queries/compliance-documents';
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

/** What the checklist shows of a document: never its bytes. */
const documentView = (d: ComplianceDocumentSummary) => ({
  id: d.id,
  status: d.status,
  expiresOn: d.expiresOn,
  fileName: d.fileName,
  contentType: d.contentType,
  sizeBytes: d.sizeBytes,
  sha256: d.sha256,
  hasFile: d.fileName !== null,
  note: d.note,
  rejectionReason: d.rejectionReason,
  reviewedAt: d.reviewedAt?.toISOString() ?? null,
  uploadedAt: d.createdAt.toISOString(),
});

/** Documents of a kind the checklist lists (newest first). */
const SHOWN_DOCUMENTS = 5;

/**
 * The insurance or licence step (issue 45, decision 1010): done only with a VERIFIED document of the
 * kind expiring today or later, as the job-offer gate (installer_gate_ok) and the list's SQL flags
 * (queries/onboarding-summary.ts) decide; a pending, rejected or typed (file-less) one never counts.
 * Expired: verified ones exist and all have ended. `expiresOn` is the latest verified expiry.
 */
function complianceStep<K extends 'insurance' | 'license'>(
  key: K,
  kind: 'insurance' | 'licence',
  all: readonly ComplianceDocumentSummary[],
  today: string,
) {
  const docs = all.filter((d) => d.kind === kind);
  // yyyy-mm-dd strings sort as the dates they name: the last is the latest.
  const latest =
    docs
      .filter((d) => d.status === 'verified')
      .map((d) => d.expiresOn)
      .sort()
      .at(-1) ?? null;
  const done = latest !== null && latest >= today;
  return {
    key,
    done,
    expired: latest !== null && !done,
    expiresOn: latest,
    documents: docs.slice(0, SHOWN_DOCUMENTS).map(documentView),
  };
}

export async function onboardingOf(db: Kysely<DB>, dealer: OnboardingDealer, now: Date) {
  const today = todayIn(CALL_TIME_ZONE, now);
  const keys = ONBOARDING_STEPS[dealer.tier];
  const installer = keys.includes('initialInventory');
  const [agreement, signatures, call, compliance, settings, payments] = await Promise.all([
    currentAgreement(db, dealer.tier),
    signaturesOf(db, dealer.id),
    onboardingCallOf(db, dealer.id),
    installer ? complianceDocumentsOf(db, dealer.id) : [],
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
        return complianceStep(key, 'insurance', compliance, today);
      default: // 'license'
        return complianceStep(key, 'licence', compliance, today);
    }
  });
  return { tier: dealer.tier, steps, complete: steps.every((s) => s.done) };
}

export type Onboarding = Awaited<ReturnType<typeof onboardingOf>>;
export type OnboardingStep = Onboarding['steps'][number];
