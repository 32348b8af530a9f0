import { businessSettingsInput, linkTokenInput, login, resetPassword, setupPassword } from '@dn/schema';
import { businessSettings, updateBusinessSettings } from '../services/accounts/business-settings';
import { requestPasswordReset, setupPasswordWithToken } from '../services/accounts/passwords';
import { adminLogin, currentUser, dealerLogin, logout } from '../services/accounts/sign-in';
import { assertTokenUsable } from '../services/accounts/tokens';
import { adminProcedure, alone, ownerProcedure, publicProcedure, rest, router, sessionOnly } from '../trpc/init';

/** Accounts: sign-in and out, who is signed in, and a dealer's password by emailed link. */

/** `auth.*`: sign-in, sign-out and who is signed in. */
export const authRouter = router({
  me: publicProcedure.query(({ ctx }) => (ctx.user ? currentUser(ctx) : null)),
  /** The same for scripts: a visitor is told 401. */
  user: publicProcedure
    .meta(rest('GET', '/api/auth/user', 'The signed-in user (401 when signed out)'))
    .query(({ ctx }) => currentUser(ctx)),
  dealerLogin: publicProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(rest('POST', '/api/dealer/login', 'Dealer sign-in (username is the email)'))
    .input(login)
    .mutation(({ ctx, input }) => dealerLogin(ctx, input)),
  adminLogin: publicProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(rest('POST', '/api/admin/login', 'Admin sign-in'))
    .input(login)
    .mutation(({ ctx, input }) => adminLogin(ctx, input)),
  /** Why this browser's session ended, when it was ended from elsewhere (issue 36); null otherwise. */
  ended: publicProcedure
    .meta(rest('GET', '/api/auth/ended', "Why this browser's session was ended elsewhere (a password change), or null"))
    .query(({ ctx }) => ({ reason: ctx.user ? null : (ctx.session.endedBy?.() ?? null) })),
  logout: publicProcedure
    .meta(sessionOnly)
    .meta(rest('POST', '/api/auth/logout', 'Signs out: destroys the session and clears its cookie'))
    .mutation(({ ctx }) => logout(ctx)),
});

/** Part of `account.*`: a dealer's password from an emailed link. */
export const accountsAccount = router({
  setupPassword: publicProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(rest('POST', '/api/dealer/setup-password', 'Sets the password from an emailed link and signs the dealer in'))
    .input(setupPassword)
    .mutation(({ ctx, input }) => setupPasswordWithToken(ctx, input)),
  checkLink: publicProcedure
    .meta(
      rest(
        'POST',
        '/api/dealer/check-link',
        'Whether an emailed password link still works, asked when its page opens; 410 when used or expired',
      ),
    )
    .input(linkTokenInput)
    .mutation(({ ctx, input }) => assertTokenUsable(ctx.db, input.token)),
  resetPassword: publicProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/dealer/reset-password',
        'Emails a password link to a dealer who may sign in; the same answer for any address',
      ),
    )
    .input(resetPassword)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
});

/** `settings.*` (issue 38): the business's time zone, which business days and the digest are counted in. */
export const settingsRouter = router({
  business: adminProcedure
    .meta(rest('GET', '/api/admin/settings/business', "The business's settings: its time zone"))
    .query(({ ctx }) => businessSettings(ctx)),
  setBusiness: ownerProcedure
    .meta(rest('PUT', '/api/admin/settings/business', "Sets the business's time zone (owners)"))
    .input(businessSettingsInput)
    .mutation(({ ctx, input }) => updateBusinessSettings(ctx, input)),
});
