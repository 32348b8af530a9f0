import { findDealerForAdmin } from '@dn/db/queries/dealers';
import { dealerTimeline } from '@dn/db/queries/insights';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { DEALER_NOT_FOUND } from '../applications/review';

/** A dealer and their history (audit rows, calls, emails), newest first. */
export async function getDealerTimeline(ctx: Context, id: string) {
  const dealer = await findDealerForAdmin(ctx.db, id);
  if (!dealer) throw new AppError('NOT_FOUND', DEALER_NOT_FOUND);
  const entries = await dealerTimeline(ctx.db, dealer.id, dealer.email, 200);
  return { dealer, entries };
}
