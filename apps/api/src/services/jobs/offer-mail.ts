import type { DB, Kysely } from '@dn/db';
import { claimOfferReminders, type OfferMailFacts, offerMailFacts } from '@dn/db/queries/offer-mail';
import { stateTimeZone } from '@dn/schema';
import type { Deps } from '../../context';
import { jobOfferEmail, jobOfferReminderEmail } from '../mail/offer-templates';
import { enqueueMail } from '../mail/outbox';

/**
 * The installer hears of an offer (issue 47, decision 1060): an email queued in the transaction that
 * writes the offer, and one reminder when a quarter of the window is left (the `jobs.offer-reminders`
 * sweep). The deadline is written in the installer's zone: the one they booked their onboarding call
 * in, else their service area's state's.
 */

const zoneOf = (f: OfferMailFacts) => f.callTimeZone ?? stateTimeZone(f.areaState ?? f.state);

export async function queueOfferEmail(trx: Kysely<DB>, deps: Pick<Deps, 'config'>, offerId: string) {
  const facts = await offerMailFacts(trx, offerId);
  if (!facts) return;
  await enqueueMail(trx, jobOfferEmail(facts, { publicUrl: deps.config.publicUrl, timeZone: zoneOf(facts) }));
}

const BATCH = 200;

/** The reminder sweep: claims the due offers and queues one reminder each, in one transaction. */
export async function sendOfferReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const sent = await deps.db.transaction().execute(async (trx) => {
    const ids = await claimOfferReminders(trx, now, BATCH);
    for (const id of ids) {
      const facts = await offerMailFacts(trx, id);
      if (facts) {
        await enqueueMail(
          trx,
          jobOfferReminderEmail(facts, { publicUrl: deps.config.publicUrl, timeZone: zoneOf(facts) }),
        );
      }
    }
    return ids.length;
  });
  if (sent > 0) deps.mail.kick();
  return sent;
}
