import type { DB, Kysely } from '@dn/db';
import { EXPIRED_IN_A_ROW_PAUSE, findInstallerScore, pauseForExpiries } from '@dn/db/queries/installer-scores';
import { findDealerForJobs } from '@dn/db/queries/jobs';
import type { Deps } from '../../context';
import { enqueueMail } from '../mail/outbox';
import { offersPausedEmail } from '../mail/pause-template';

/**
 * The pause after offers expired in a row (issue 50, decision 1123). The count is kept by the
 * trigger on job_offers (installer_scores.expired_streak: an expiry adds one, an accept or a
 * decline starts it over); the expiry sweep, in the transaction that expired the offer, pauses the
 * area at three and queues the email, once: only the call that paused the area sends it.
 */
export async function pauseAfterExpiries(trx: Kysely<DB>, deps: Pick<Deps, 'config'>, dealerId: string, now: Date) {
  const score = await findInstallerScore(trx, dealerId);
  if (!score || score.expiredStreak < EXPIRED_IN_A_ROW_PAUSE) return false;
  const area = await pauseForExpiries(trx, dealerId, now);
  if (!area) return false;
  const dealer = await findDealerForJobs(trx, dealerId);
  if (dealer) {
    await enqueueMail(
      trx,
      offersPausedEmail(
        { dealerId, email: dealer.email, fullName: dealer.fullName },
        { publicUrl: deps.config.publicUrl },
      ),
    );
  }
  return true;
}
