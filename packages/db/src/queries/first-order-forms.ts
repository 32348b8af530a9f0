import type { Tier } from '../types';
import type { Executor } from './executor';

/** One first-order form per tier: a Google Form URL and whether the dealer must fill it in. */

export function findFirstOrderForm(db: Executor, tier: Tier) {
  return db
    .selectFrom('firstOrderForms')
    .select(['tier', 'formUrl', 'isRequired'])
    .where('tier', '=', tier)
    .executeTakeFirst();
}

export function listFirstOrderForms(db: Executor) {
  return db
    .selectFrom('firstOrderForms')
    .select(['id', 'tier', 'formUrl', 'isRequired', 'updatedAt'])
    .orderBy('tier')
    .execute();
}

/** Creates or replaces the tier's form. */
export function upsertFirstOrderForm(db: Executor, form: { tier: Tier; formUrl: string | null; isRequired: boolean }) {
  const { formUrl, isRequired } = form;
  return db
    .insertInto('firstOrderForms')
    .values({ ...form, updatedAt: new Date() })
    .onConflict((oc) => oc.column('tier').doUpdateSet({ formUrl, isRequired, updatedAt: new Date() }))
    .returning(['id', 'tier', 'formUrl', 'isRequired', 'updatedAt'])
    .executeTakeFirstOrThrow();
}
