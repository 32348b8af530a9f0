import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN } from './constants';

/**
 * The common-password rule (issue 35, finding 11; decision 0881): NIST SP 800-63B asks that a new
 * password be checked against a list of passwords known to be common. The list is the one
 * zxcvbn-ts maintains (`@zxcvbn-ts/language-common`, 49,233 passwords from breach corpora, ranked by
 * frequency; 18k of them have 8 characters or more). Its own module, kept out of `@dn/schema`'s
 * index: the list is 380 KB, which the web app's forms do not need (the server answers the rule).
 * Loaded on first use (about 30 ms and 8 MB once a process), compared case-insensitively.
 */
export const COMMON_PASSWORD = 'This password is too common. Please choose one that is harder to guess.';

let common: ReadonlySet<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase()),
  );
  return common.has(password.toLowerCase());
}
