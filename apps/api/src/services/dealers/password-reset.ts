import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { queueResetEmail } from '../accounts/emails';
import { canSignIn, lockApplication } from '../applications/review';
import { audit } from '../audit/audit';

/** Emails a password reset link (offered when access is granted or the dealer is approved/active). */
export async function sendDealerPasswordReset(ctx: Context & { user: User }, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const dealer = await lockApplication(trx, id);
    if (!dealer.accessGranted && !canSignIn(dealer.status)) {
      throw new AppError('CONFLICT', 'This dealer has no access yet: grant access or approve the dealer first');
    }
    await queueResetEmail(trx, dealer, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.password_reset_sent',
      category: 'email',
      message: `${ctx.user.username} sent a password reset link to ${dealer.email}`,
      dealerId: id,
      details: { emailed: 'password_reset' },
    });
  });
  ctx.mail.kick();
  return { ok: true as const };
}
