import { EXPIRED_LINK, INVALID_LINK, LINK_FAILED } from '@dn/schema/messages';
import { TRPCClientError } from '@trpc/client';
import { httpStatusOf } from '../lib/trpc';

/** The /login page's `error` query values (SPEC section 8). */
export const LINK_ERRORS = {
  'invalid-magic-link': INVALID_LINK,
  'expired-magic-link': EXPIRED_LINK,
  'magic-link-error': LINK_FAILED,
} as const;
export type LinkError = keyof typeof LINK_ERRORS;

export function loginPageError(code: string): string {
  return (LINK_ERRORS as Record<string, string>)[code] ?? 'An error occurred. Please try again.';
}

/** Errors after which the page offers to email a fresh link. */
export const offersFreshLink = (code: string | undefined) =>
  code === 'invalid-magic-link' || code === 'expired-magic-link';

/** What the server said, or '' when the call never reached it. */
export function serverMessage(error: unknown): string {
  return error instanceof TRPCClientError || error instanceof Error ? error.message : '';
}

/**
 * SPEC section 8's mapping of a failed sign-in. The spec reads an error as "status: body";
 * the status comes from the tRPC error's data here.
 */
export function loginFailureText(message: string, status?: number): string {
  const text = status ? `${status}: ${message}` : message;
  if (text.includes('Invalid email or password')) {
    return 'The username or password you entered is incorrect. Please check your credentials and try again.';
  }
  if (text.includes('401')) return 'Authentication failed. Please verify your login credentials.';
  if (/Network|fetch/.test(text)) return 'Connection error. Please check your internet connection and try again.';
  return message || 'Login failed. Please try again.';
}

export const loginFailureMessage = (error: unknown) => loginFailureText(serverMessage(error), httpStatusOf(error));
