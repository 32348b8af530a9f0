import { plural, withArticle } from './words';

/** The money loop's words in the console (issue 36, decision 0993). */
export const MONEY_WORDS = {
  ruleTitle: (tier: string) => `Referred dealer: ${tier}`,
  ruleHelp: (tier: string) =>
    `What a recruiter earns on the orders of a dealer they referred who is ${withArticle(tier)} dealer (the referred dealer's tier, not the recruiter's).`,
  monthsFirst: 'Only for rules on all orders',
  monthsAll: 'Empty: for as long as the dealer orders',
  exportColumns: (picked: number, all: number) => `Export columns (${picked}/${all})`,
  markPaidBody: (recruiters: number, total: string) =>
    `Marking this batch paid emails its ${plural(recruiters, 'recruiter')} their payout (${total} in all). It cannot be undone.`,
  markPaidConfirm: (recruiters: number) => `Mark paid and email ${plural(recruiters, 'recruiter')}`,
  earnedFrom: (amount: string, rate: string) => `${rate} of ${amount}`,
} as const;
