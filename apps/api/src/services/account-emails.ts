import type { DB, Kysely } from '@dn/db';
import { TOKEN_TTL_HOURS } from '@dn/schema';
import type { Config } from '../env';
import { enqueueMail } from './mail';
import { issueToken } from './tokens';

export interface EmailDealer {
  id: string;
  email: string;
  fullName: string;
  tier?: string | null;
}

/**
 * Account emails. Each is written to the outbox inside the caller's transaction; the caller
 * calls ctx.mail.kick() after the commit. Links are built from PUBLIC_URL only: a request's
 * Host header is the attacker's to choose, and a reset link pointing elsewhere would leak the token.
 */

const linkFor = (config: Pick<Config, 'publicUrl'>, token: string) =>
  `${config.publicUrl}/login?token=${encodeURIComponent(token)}`;

const loginUrl = (config: Pick<Config, 'publicUrl'>) => `${config.publicUrl}/login`;

function hours(h: number): string {
  return h === 1 ? '1 hour' : `${h} hours`;
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Plain paragraphs to text and to HTML; `link` becomes a button-like anchor in HTML. */
function render(paragraphs: string[], link?: { url: string; label: string }) {
  const text = [...paragraphs.slice(0, 2), ...(link ? [link.url] : []), ...paragraphs.slice(2)].join('\n\n');
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const a = link
    ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p>${escapeHtml(link.url)}</p>`
    : '';
  const html = `<!doctype html><html><body>${paragraphs.slice(0, 2).map(p).join('')}${a}${paragraphs.slice(2).map(p).join('')}</body></html>`;
  return { text, html };
}

/** The approval email: a link to set a password (72 hours), what comes next, how to get another link. */
export async function queueApprovalEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
  opts: { resend?: boolean } = {},
): Promise<void> {
  const token = await issueToken(trx, dealer.id, 'setup');
  const url = linkFor(config, token);
  const tier = dealer.tier ? `${dealer.tier} dealer` : 'dealer';
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      opts.resend
        ? `Here is a new link to set the password of your ${tier} account. Any earlier link no longer works.`
        : `Good news: your application has been approved and you are now a ${tier} in our network. Set your password with the link below to open your dealer dashboard.`,
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.setup)}.`,
      'What happens next: once your password is set you are signed in to your dashboard, where you will find your dealer details, your first order form, your affiliate link to refer other dealers, and our resources. We will also contact you to schedule your onboarding call within 5 business days.',
      `If the link has expired or was already used, go to ${loginUrl(config)}, choose "Forgot password?" and enter ${dealer.email}: we will email you a fresh link.`,
      'If you did not apply to become a dealer, you can ignore this email.',
    ],
    { url, label: 'Set up your password' },
  );
  await enqueueMail(trx, {
    kind: opts.resend ? 'setup_link' : 'approval',
    to: dealer.email,
    subject: opts.resend
      ? 'Your new link to set up your dealer password'
      : 'Your dealer application is approved: set up your password',
    text,
    html,
    dealerId: dealer.id,
  });
}

/** A password reset link (1 hour). */
export async function queueResetEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
): Promise<void> {
  const token = await issueToken(trx, dealer.id, 'reset');
  const url = linkFor(config, token);
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'We received a request to reset the password of your dealer account. Choose a new password with the link below.',
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.reset)}. If it has expired, go to ${loginUrl(config)}, choose "Forgot password?" and ask for another.`,
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ],
    { url, label: 'Reset your password' },
  );
  await enqueueMail(trx, {
    kind: 'password_reset',
    to: dealer.email,
    subject: 'Reset your dealer account password',
    text,
    html,
    dealerId: dealer.id,
  });
}

/** A notice after the password changed, so an owner who did not do it finds out. */
export async function queuePasswordChangedEmail(
  trx: Kysely<DB>,
  dealer: EmailDealer,
  config: Pick<Config, 'publicUrl'>,
): Promise<void> {
  const { text, html } = render([
    `Hello ${dealer.fullName},`,
    'The password of your dealer account was just set. Any other signed-in sessions of your account have been signed out.',
    `If this was not you, go to ${loginUrl(config)}, choose "Forgot password?" to set a new password, and contact support.`,
  ]);
  await enqueueMail(trx, {
    kind: 'password_changed',
    to: dealer.email,
    subject: 'Your dealer account password was changed',
    text,
    html,
    dealerId: dealer.id,
  });
}
