/**
 * Counted nouns and indefinite articles for every email, toast and log line (issue 36), so no
 * text reads "1 recruiters", "1 other session(s)" or "a Affiliate dealer". No zod here: the web
 * app's console imports it with ADMIN_MESSAGES.
 */

const rules = new Intl.PluralRules('en-US');

/** The noun for a count: `noun(1, 'entry', 'entries')` -> "entry"; the plural defaults to one + "s". */
export function noun(n: number, one: string, many = `${one}s`): string {
  return rules.select(n) === 'one' ? one : many;
}

/** A count and its noun: `plural(0, 'entry', 'entries')` -> "0 entries", `plural(1, 'recruiter')` -> "1 recruiter". */
export function plural(n: number, one: string, many?: string): string {
  return `${n.toLocaleString('en-US')} ${noun(n, one, many)}`;
}

// Words that start with a vowel letter but a consonant sound ("a user", "a one-time link"), and
// the reverse ("an hour", "an honest").
const CONSONANT_SOUND = /^(?:uni|use|usu|uti|eu|one|once|ur[aie])/i;
const VOWEL_SOUND = /^(?:hour|honest|honou?r|heir)/i;

/** "a" or "an" for the word that follows: `article('Affiliate')` -> "an". */
export function article(word: string): 'a' | 'an' {
  const w = word.trim();
  if (VOWEL_SOUND.test(w)) return 'an';
  if (CONSONANT_SOUND.test(w)) return 'a';
  return /^[aeiou]/i.test(w) ? 'an' : 'a';
}

/** The word with its article: `withArticle('Affiliate dealer')` -> "an Affiliate dealer". */
export function withArticle(phrase: string): string {
  return `${article(phrase)} ${phrase}`;
}

const FAULTS: [RegExp, string][] = [
  [/\b[Aa] (?!one\b|one-|u[bcfhjkqrstn]|eu)[AEIOUaeiou]\w*/g, '"a" before a vowel sound'],
  [/\b[Aa]n (?!hour|honest|honou?r|heir)[B-DF-HJ-NP-TV-Zb-df-hj-np-tv-z]\w*/g, '"an" before a consonant sound'],
  [/(?<![\d.,])1 (?:other |more |new )?[A-Za-z]+s(?<!ss|us|is)\b/g, 'a plural after 1'],
  [/\(s\)|\(es\)/g, 'a "(s)" plural'],
];

/**
 * What reads wrong in a text a person gets (issue 36): "a Affiliate", "an dealer", "1 recruiters",
 * "session(s)". For the tests over every email and message; empty when the text is fine.
 */
export function wordingFaults(text: string): string[] {
  return FAULTS.flatMap(([re, why]) => [...text.matchAll(re)].map((m) => `${why}: "${m[0]}"`));
}
