import type { DB, Kysely } from '@dn/db';
import { findDealerForAdmin } from '@dn/db/queries/dealers';
import { ACTIVE_STATUSES, type DealerStatus } from '@dn/schema';
import { AppError } from '../../lib/app-error';

/** An application as the admin decides on it: read and locked inside the deciding transaction. */

export type Application = NonNullable<Awaited<ReturnType<typeof findDealerForAdmin>>>;

export const DEALER_NOT_FOUND = 'Dealer not found';

/** Approved and active dealers may sign in; every other status may not. */
export const canSignIn = (s: DealerStatus) => ACTIVE_STATUSES.includes(s);

export async function lockApplication(trx: Kysely<DB>, id: string): Promise<Application> {
  const dealer = await findDealerForAdmin(trx, id, true);
  if (!dealer) throw new AppError('NOT_FOUND', DEALER_NOT_FOUND);
  return dealer;
}
