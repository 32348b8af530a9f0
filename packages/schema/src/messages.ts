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

/** A session id or one-time token: 32 random bytes, base64url (43 characters). */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
