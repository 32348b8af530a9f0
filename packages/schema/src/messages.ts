/**
 * Words and shapes the server and the browser must agree on, written once. No zod here: the web
 * app's route options import this file (`@dn/schema/messages`) and ship with the landing page.
 */

/** SPEC section 8: the /login page's link errors, and the API's answers for such links. */
export const INVALID_LINK = 'The magic link is invalid or malformed.';
export const EXPIRED_LINK = 'The magic link has expired or has already been used.';
export const LINK_FAILED = 'There was an error processing your magic link. Please contact support.';

/** SPEC section 6: what a signed-in non-admin is told on an admin page or endpoint. */
export const ACCESS_DENIED = 'Access Denied: You need administrator privileges to access this page.';

/**
 * The 503 a request gets when the password-hashing queue is full (decision 0630): sent with
 * `Retry-After`, on /api and /trpc alike.
 */
export const SERVER_BUSY = 'The server is busy. Please try again in a few seconds.';

/**
 * A session id or one-time token (a link's, a status link's): 32 random bytes, base64url, so 43
 * characters of this set. Written once; the outbox scrubs sent links with the same pattern.
 */
const TOKEN_CHAR = '[A-Za-z0-9_-]';
const TOKEN = `${TOKEN_CHAR}{43}`;
export const TOKEN_SHAPE = new RegExp(`^${TOKEN}$`);
/**
 * A token as a whole word inside a text (not part of a longer run of its characters), as a
 * pattern source that JavaScript and PostgreSQL regular expressions read alike: what the outbox
 * removes from an email's stored bodies once it has left (packages/db takes it as a parameter).
 */
export const TOKEN_IN_TEXT = `(?<!${TOKEN_CHAR})${TOKEN}(?!${TOKEN_CHAR})`;
