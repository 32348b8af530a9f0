import { lockSetting, readSetting, writeSetting } from '@dn/db/queries/app-settings';
import { type BusinessSettingsInput, businessSettingsInput, DEFAULT_BUSINESS_TIME_ZONE } from '@dn/schema';
import type { Context, Deps, User } from '../../context';
import { audit } from '../audit/audit';

/**
 * The business's settings (issue 38, decision 0941): the time zone business days, review deadlines and
 * the 08:00 digest are counted in. Owners change it; America/New_York until they do. Kept here, in a
 * rank every domain that counts business days (applications, review) can read.
 */
export interface BusinessSettings {
  timeZone: string;
}

const KEY = 'business';

/** A stored value that no longer parses (a zone this runtime dropped) falls back to the default. */
function parse(value: unknown): BusinessSettings {
  const r = businessSettingsInput.safeParse(value);
  return { timeZone: r.success ? r.data.timeZone : DEFAULT_BUSINESS_TIME_ZONE };
}

export async function businessSettings(deps: Pick<Deps, 'db'>): Promise<BusinessSettings> {
  return parse(await readSetting(deps.db, KEY));
}

export async function updateBusinessSettings(ctx: Context & { user: User }, input: BusinessSettingsInput) {
  const next = businessSettingsInput.parse(input);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockSetting(trx, KEY);
    const before = parse(row?.value);
    await writeSetting(trx, KEY, next, ctx.user.username);
    await audit(trx, ctx, {
      eventType: 'settings.business_updated',
      category: 'admin',
      message: `${ctx.user.username} set the business time zone to ${next.timeZone}`,
      details: { before, after: next },
    });
    return next;
  });
}
