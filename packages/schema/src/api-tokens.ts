import { z } from 'zod';
import { requiredText, uuid } from './common';

/** Personal API tokens (issue 40, decision 0980): what a token may do. */
export const API_TOKEN_SCOPES = ['read', 'read-write'] as const;
export type ApiTokenScopeName = (typeof API_TOKEN_SCOPES)[number];
/** The expiries offered, in days; the longest is a year. */
export const API_TOKEN_EXPIRIES = [7, 30, 90, 365] as const;
export const API_TOKEN_NAME_MAX = 80;
/** A personal API token as it appears in a text: its prefix and 32 random bytes in base64url. */
export const API_TOKEN_IN_TEXT = 'dnp_[A-Za-z0-9_-]{43}';

export const createApiTokenInput = z.object({
  name: requiredText('Token name is required', API_TOKEN_NAME_MAX),
  scope: z.enum(API_TOKEN_SCOPES, { error: 'Scope must be read or read-write' }),
  expiresInDays: z
    .number({ error: 'Expiry must be a number of days' })
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be at least 1 day')
    .max(365, 'Expiry can be at most 365 days'),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInput>;
export const apiTokenIdInput = z.object({ id: uuid() });

/** The messages a token's caller reads. */
export const API_TOKEN_MESSAGES = {
  readOnly: 'This API token is read-only: it cannot make changes',
  notForThis: 'API tokens cannot be used for sign-in, passwords, sessions or API tokens: sign in instead',
  notFound: 'No active API token with that id',
  shownOnce: 'Copy this token now: it will not be shown again.',
  create: { success: 'API token created', failure: 'Failed to create the API token' },
  revoke: { success: 'API token revoked', failure: 'Failed to revoke the API token' },
} as const;
