import type { DB, Kysely } from '@dn/db';
import type { Config } from '../../env';
import { sha256 } from '../../lib/tokens';
import { enqueueMail } from '../mail/outbox';
import { approvalEmail, type EmailDealer, passwordChangedEmail, resetEmail } from '../mail/templates';
import { issueToken, retireTokens } from './tokens';

/**
 * Account emails. Each is written to the outbox inside the caller's transaction, with a fresh
 * one-time link where it carries one; the caller calls ctx.mail.kick() after the commit.
 */

/**
 * A fresh set-up link (72 hours) for a dealer who may sign in but never set a password ("Forgot
 * password?"). Approving a dealer sends its first link through the one approval,
 * services/applications/approve.ts.
 */
export async function queueSetupLinkEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
): Promise<void> {
  // A set-up link and a reset link are two click paths to one password: the newest email's
  // link is the only live one.
  await retireTokens(trx, dealer.id);
  const token = await issueToken(trx, dealer.id, 'setup');
  await enqueueMail(trx, {
    ...approvalEmail(dealer, { publicUrl: config.publicUrl, token, resend: true }),
    tokenHash: sha256(token),
  });
}

/** A password reset link (1 hour). */
export async function queueResetEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
): Promise<void> {
  await retireTokens(trx, dealer.id);
  const token = await issueToken(trx, dealer.id, 'reset');
  await enqueueMail(trx, { ...resetEmail(dealer, { publicUrl: config.publicUrl, token }), tokenHash: sha256(token) });
}

/** A notice after the password changed. */
export async function queuePasswordChangedEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
): Promise<void> {
  await enqueueMail(trx, passwordChangedEmail(dealer, { publicUrl: config.publicUrl }));
}
