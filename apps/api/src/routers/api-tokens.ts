import { apiTokenIdInput, createApiTokenInput } from '@dn/schema/api-tokens';
import { createApiToken, listApiTokens, revokeApiToken } from '../services/accounts/api-tokens';
import { ownerProcedure, rest, router, sessionOnly } from '../trpc/init';

/**
 * Personal API tokens (issue 40, decision 0980): owners make them for scripts. Managed only from
 * a signed-in session, never with a token.
 */
export const apiTokensRouter = router({
  list: ownerProcedure
    .meta(sessionOnly)
    .meta(rest('GET', '/api/admin/api-tokens', "The team's API tokens: name, scope, expiry, last use, who made it"))
    .query(({ ctx }) => listApiTokens(ctx)),
  create: ownerProcedure
    .meta(sessionOnly)
    .meta(
      rest(
        'POST',
        '/api/admin/api-tokens',
        'Creates an API token acting with your role, limited by its scope; the token is in this answer only',
      ),
    )
    .input(createApiTokenInput)
    .mutation(({ ctx, input }) => createApiToken(ctx, input)),
  revoke: ownerProcedure
    .meta(sessionOnly)
    .meta(rest('DELETE', '/api/admin/api-tokens/{id}', 'Revokes an API token: it stops working at once'))
    .input(apiTokenIdInput)
    .mutation(({ ctx, input }) => revokeApiToken(ctx, input.id)),
});
