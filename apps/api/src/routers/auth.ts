import { login } from '@dn/schema';
import { adminLogin, currentUser, dealerLogin, logout } from '../services/accounts/sign-in';
import { alone, publicProcedure, rest, router } from '../trpc/init';

export const authRouter = router({
  /** The signed-in user, or null for a visitor. */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? currentUser(ctx) : null)),
  /** The same for scripts: a visitor is told 401. */
  user: publicProcedure
    .meta(rest('GET', '/api/auth/user', 'The signed-in user (401 when signed out)'))
    .query(({ ctx }) => currentUser(ctx)),
  dealerLogin: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer/login', 'Dealer sign-in (username is the email)'))
    .input(login)
    .mutation(({ ctx, input }) => dealerLogin(ctx, input)),
  adminLogin: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/login', 'Admin sign-in'))
    .input(login)
    .mutation(({ ctx, input }) => adminLogin(ctx, input)),
  logout: publicProcedure
    .meta(rest('POST', '/api/auth/logout', 'Signs out: destroys the session and clears its cookie'))
    .mutation(({ ctx }) => logout(ctx)),
});
