import { claimDigest, findDigest } from '@dn/db/queries/daily-digests';
import { countPendingApplications, listDigestRecipients, listPendingApplications } from '@dn/db/queries/review-queue';
import { DIGEST_HOUR } from '@dn/schema';
import type { Deps } from '../../context';
import { localParts } from '../../lib/business-days';
import { describeApplication, reviewClock } from '../applications/review-promise';
import { enqueueMail } from '../mail/outbox';
import { type DigestSectionText, reviewDigestEmail } from '../mail/templates';
import { onboardingDigestSections } from '../onboarding/digest';

/**
 * The reviewers' and owners' daily digest (issue 38, decision 0942): at DIGEST_HOUR (08:00) in the
 * business's time zone, once per business date (daily_digests keyed by the date, inserted in the
 * transaction that queues the emails), whichever instance's sweep gets there first. A server that was
 * down at 08:00 sends it when it is back the same day.
 */

export interface DigestDay {
  /** The business date (yyyy-mm-dd) the digest is for, and the zone it is counted in. */
  date: string;
  timeZone: string;
}

/**
 * A section of the digest. The extension point for the other periodic promises: onboarding steps
 * overdue and expiring insurance (issue 38's onboarding part) append their sections to DIGEST_SECTIONS.
 */
export interface DigestSection {
  key: string;
  collect(deps: Deps, day: DigestDay): Promise<DigestSectionText>;
}

/** The overdue applications by name (at most 50 named; the count above says how many). */
const overdueApplications: DigestSection = {
  key: 'overdue-applications',
  async collect(deps) {
    const c = await reviewClock(deps);
    const rows = await listPendingApplications(deps.db, { limit: 50, submittedBefore: c.overdueBefore });
    return {
      title: 'Overdue applications (oldest first):',
      lines: rows.map((r) => {
        const a = describeApplication(r, c);
        return `${a.fullName}${a.companyName ? ` (${a.companyName})` : ''}, ${a.tier}: ${a.ageBusinessDays} business days, expected by ${a.decisionExpectedBy}`;
      }),
    };
  },
};

const DOCUMENT_NAMES = { insurance: 'insurance certificate', license: 'contractor licence' } as const;

/** The dealers whose onboarding is overdue (issue 38's checklist: the call not held in time, or a document expired). */
const overdueOnboarding: DigestSection = {
  key: 'overdue-onboarding',
  async collect(deps) {
    const o = await onboardingDigestSections(deps);
    return {
      title: 'Onboarding overdue:',
      lines: [
        ...o.overdueOnboarding.map((d) => `${d.fullName}: ${d.reason}`),
        ...(o.moreOverdue ? ['and more: see the dealers list, filter "Onboarding overdue"'] : []),
      ],
    };
  },
};

/** Insurance certificates and licences of active installers expiring within 30 days, soonest first. */
const expiringDocuments: DigestSection = {
  key: 'expiring-documents',
  async collect(deps) {
    const o = await onboardingDigestSections(deps);
    return {
      title: 'Insurance and licences expiring within 30 days:',
      lines: o.expiringDocuments.map((d) => `${d.fullName}: ${DOCUMENT_NAMES[d.document]} expires ${d.expiresOn}`),
    };
  },
};

export const DIGEST_SECTIONS: DigestSection[] = [overdueApplications, overdueOnboarding, expiringDocuments];

/** The digest sweep: sends today's digest once it is DIGEST_HOUR in the business zone; resolves with the emails queued. */
export async function sendDailyDigest(
  deps: Deps,
  sections: readonly DigestSection[] = DIGEST_SECTIONS,
): Promise<number> {
  const c = await reviewClock(deps);
  const now = deps.clock.now();
  const local = localParts(now, c.timeZone);
  if (local.hour < DIGEST_HOUR) return 0;
  if (await findDigest(deps.db, local.date)) return 0;
  const day: DigestDay = { date: local.date, timeZone: c.timeZone };
  const [counts, recipients, texts] = await Promise.all([
    countPendingApplications(deps.db, c.overdueBefore),
    listDigestRecipients(deps.db),
    Promise.all(sections.map((s) => s.collect(deps, day))),
  ]);
  const queued = await deps.db.transaction().execute(async (trx) => {
    const claimed = await claimDigest(trx, {
      businessDate: local.date,
      sentAt: now,
      recipients: recipients.length,
      pending: counts.pending,
      overdue: counts.overdue,
    });
    if (!claimed) return 0;
    for (const r of recipients) {
      await enqueueMail(
        trx,
        reviewDigestEmail(r.email!, { date: local.date, ...counts, sections: texts, publicUrl: deps.config.publicUrl }),
      );
    }
    return recipients.length;
  });
  if (queued > 0) deps.mail.kick();
  return queued;
}
