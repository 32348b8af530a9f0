import {
  findFirstOrderForm,
  listFirstOrderForms as readFirstOrderForms,
  upsertFirstOrderForm,
} from '@dn/db/queries/first-order-forms';
import { INSTALLER_TIERS, type updateFirstOrderForm } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';

/** The first-order form of each tier: the admin configures them, a dealer opens their tier's. */

/** The first-order form configured for the signed-in dealer's tier (the session user is loaded fresh per request). */
export async function dealerFirstOrderForm(ctx: Context & { user: User }) {
  const tier = ctx.user.tier;
  if (!tier) throw new AppError('FORBIDDEN', 'This is for dealer accounts');
  const form = await findFirstOrderForm(ctx.db, tier);
  return form ?? { tier, formUrl: null, isRequired: true };
}

export function listFirstOrderForms(ctx: Context) {
  return readFirstOrderForms(ctx.db);
}

/** The URL is already normalised and checked by the schema; the required flag is forced for installer tiers. */
export async function updateFirstOrderFormConfig(
  ctx: Context & { user: User },
  input: z.output<typeof updateFirstOrderForm>,
) {
  const isRequired = INSTALLER_TIERS.includes(input.tier) ? true : input.isRequired;
  const formUrl = input.formUrl || null;
  return ctx.db.transaction().execute(async (trx) => {
    const before = await findFirstOrderForm(trx, input.tier);
    const row = await upsertFirstOrderForm(trx, { tier: input.tier, formUrl, isRequired });
    await audit(trx, ctx, {
      eventType: 'first_order_form.updated',
      category: 'admin',
      message: `${ctx.user.username} updated the ${input.tier} first-order form`,
      details: {
        tier: input.tier,
        before: before ? { formUrl: before.formUrl, isRequired: before.isRequired } : null,
        after: { formUrl, isRequired },
      },
    });
    return row;
  });
}
