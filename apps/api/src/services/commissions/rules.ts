import type { CommissionRule } from '@dn/db';
import { currentRules, insertRuleVersion } from '@dn/db/queries/commission-rules';
import { type CommissionRuleInput, TIERS } from '@dn/schema';
import type { Context, User } from '../../context';
import { audit } from '../audit/audit';

/** Commission rules per tier of the referred dealer; each change is a new version. */

export function publicRule(r: CommissionRule) {
  return {
    id: r.id,
    tier: r.tier,
    version: r.version,
    type: r.type,
    value: r.value,
    appliesTo: r.appliesTo,
    months: r.months,
    holdDays: r.holdDays,
    updatedBy: r.createdBy,
    updatedAt: r.createdAt.toISOString(),
  };
}

/** Every tier, with its rule in force or null (no commission for that tier). */
export async function listCommissionRules(ctx: Context) {
  const rules = await currentRules(ctx.db);
  return TIERS.map((tier) => {
    const r = rules.find((x) => x.tier === tier);
    return { tier, rule: r ? publicRule(r) : null };
  });
}

export async function setCommissionRule(ctx: Context & { user: User }, input: CommissionRuleInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const rule = await insertRuleVersion(trx, { ...input, createdBy: ctx.user.username });
    await audit(trx, ctx, {
      eventType: 'commission_rule.updated',
      category: 'admin',
      message: `${ctx.user.username} set the ${input.tier} commission rule (version ${rule.version})`,
      details: { after: publicRule(rule) },
    });
    return publicRule(rule);
  });
}
