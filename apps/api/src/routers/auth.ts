import { login } from '@dn/schema';
import { adminLogin, currentUser, dealerLogin, logout } from '../services/auth';
import { publicProcedure, router } from '../trpc/init';

export const authRouter = router({
  /** The signed-in user, or null for a visitor (REST answers 401 instead). */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? currentUser(ctx) : null)),
  dealerLogin: publicProcedure.input(login).mutation(({ ctx, input }) => dealerLogin(ctx, input)),
  adminLogin: publicProcedure.input(login).mutation(({ ctx, input }) => adminLogin(ctx, input)),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
});
