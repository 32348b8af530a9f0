import { dueOffers } from '@dn/db/queries/jobs';
import type { Deps } from '../../context';
import { expireOffer } from './offers';

/**
 * The offer-expiry sweep: every open offer past its deadline is expired and the job passed to the
 * next installer at once (or unrouted), each in its own transaction after the job's lock, so a
 * concurrent accept or decline and a second sweep leave one outcome.
 */
export async function expireDueOffers(deps: Deps): Promise<number> {
  let handled = 0;
  for (;;) {
    const due = await dueOffers(deps.db, deps.clock.now(), 100);
    let progressed = 0;
    for (const offer of due) if (await expireOffer(deps, offer)) progressed++;
    handled += progressed;
    if (due.length < 100 || progressed === 0) break;
  }
  if (handled > 0) deps.mail.kick();
  return handled;
}
