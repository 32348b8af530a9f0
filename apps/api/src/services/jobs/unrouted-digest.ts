import { reviewerEmails } from '@dn/db/queries/jobs';
import { claimUnroutedDigest, takeUnroutedAlerts } from '@dn/db/queries/unrouted-alerts';
import type { Deps } from '../../context';
import { jobsUnroutedDigestEmail } from '../mail/job-templates';
import { enqueueMail } from '../mail/outbox';

/** Issue 45 (decision 1022): the team hears of unrouted jobs at most this often. */
export const UNROUTED_DIGEST_SECONDS = 15 * 60;

/**
 * The `jobs.unrouted-digest` sweep: when jobs became unrouted since the last digest and that one
 * went at least 15 minutes ago, one email per owner and reviewer lists them (a count in the subject,
 * ZIP codes and amounts in the body). The claim, the queue's emptying and the emails are one
 * transaction: two instances never both send, and a failure sends nothing and loses nothing.
 */
export async function sendUnroutedDigest(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const sent = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimUnroutedDigest(trx, now, UNROUTED_DIGEST_SECONDS))) return 0;
    const jobs = await takeUnroutedAlerts(trx);
    if (jobs.length === 0) return 0;
    const team = await reviewerEmails(trx);
    for (const to of team) {
      await enqueueMail(trx, jobsUnroutedDigestEmail(to, jobs, { publicUrl: deps.config.publicUrl }));
    }
    return team.length;
  });
  if (sent > 0) deps.mail.kick();
  return sent;
}
