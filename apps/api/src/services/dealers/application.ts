import { findDealerApplication } from '@dn/db/queries/dealers';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { DEALER_NOT_FOUND } from '../applications/review';

/** A dealer's whole application for the admin's detail view (issue 36); a viewer gets it without personal data (trpc/init). */
export async function getDealerApplication(ctx: Context, id: string) {
  const dealer = await findDealerApplication(ctx.db, id);
  if (!dealer) throw new AppError('NOT_FOUND', DEALER_NOT_FOUND);
  return dealer;
}
