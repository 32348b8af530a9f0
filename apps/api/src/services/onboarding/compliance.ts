import { upsertCompliance } from '@dn/db/queries/dealer-compliance';
import { CALL_TIME_ZONE, type ComplianceInput, INSTALLER_TIERS, ONBOARDING_MESSAGES, todayIn } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { ownDealer } from './dealer';

/**
 * The installer's insurance certificate and contractor licence (issue 38): replaced whole by the
 * dealer; an expiry already past is refused (the step would stay undone), a later one renews
 * the step and, once past again, the gate of job offers closes (installer_gate_ok).
 */
export async function saveCompliance(ctx: Context & { user: User }, input: ComplianceInput) {
  const dealer = await ownDealer(ctx);
  if (!INSTALLER_TIERS.includes(dealer.tier)) throw new AppError('FORBIDDEN', ONBOARDING_MESSAGES.notInstallerTier);
  const today = todayIn(CALL_TIME_ZONE, ctx.clock.now());
  const fieldErrors: Record<string, string> = {};
  if (input.insuranceExpiresOn < today) fieldErrors.insuranceExpiresOn = 'Insurance expiry date cannot be in the past';
  if (input.licenseExpiresOn < today) fieldErrors.licenseExpiresOn = 'Licence expiry date cannot be in the past';
  const first = Object.values(fieldErrors)[0];
  if (first) throw new AppError('INVALID_INPUT', first, { fieldErrors });
  await ctx.db.transaction().execute(async (trx) => {
    await upsertCompliance(trx, dealer.id, input, ctx.clock.now());
    await audit(trx, ctx, {
      eventType: 'compliance.updated',
      category: 'dealer',
      dealerId: dealer.id,
      message: `Insurance (expires ${input.insuranceExpiresOn}) and licence ${input.licenseState} (expires ${input.licenseExpiresOn}) on file`,
      details: { insuranceExpiresOn: input.insuranceExpiresOn, licenseExpiresOn: input.licenseExpiresOn },
    });
  });
  return { ok: true as const, ...input };
}
