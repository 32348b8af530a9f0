import { sql } from 'kysely';
import type { Tier } from '../types';
import type { Executor } from './executor';

/** Commission rules: one row per version; the newest version of a tier is the rule in force. */

const RULE_COLUMNS = [
  'id',
  'tier',
  'version',
  'type',
  'value',
  'appliesTo',
  'months',
  'holdDays',
  'createdBy',
  'createdAt',
] as const;

export function currentRule(db: Executor, tier: Tier) {
  return db
    .selectFrom('commissionRules')
    .select(RULE_COLUMNS)
    .where('tier', '=', tier)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The rule in force for every tier that has one. */
export function currentRules(db: Executor) {
  return db
    .selectFrom('commissionRules')
    .select(RULE_COLUMNS)
    .distinctOn('tier')
    .orderBy('tier')
    .orderBy('version', 'desc')
    .execute();
}

export function findRuleById(db: Executor, id: string) {
  return db.selectFrom('commissionRules').select(RULE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Adds the tier's next version (two admins saving at once: the second gets a unique violation). */
export function insertRuleVersion(
  db: Executor,
  r: {
    tier: Tier;
    type: 'percent' | 'fixed';
    value: string;
    appliesTo: 'first' | 'all';
    months: number | null;
    holdDays: number;
    createdBy: string;
  },
) {
  return db
    .insertInto('commissionRules')
    .values({
      ...r,
      version: sql<number>`(select coalesce(max(version), 0) + 1 from commission_rules where tier = ${r.tier})`,
    })
    .returning(RULE_COLUMNS)
    .executeTakeFirstOrThrow();
}
