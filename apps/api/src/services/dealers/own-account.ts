import {
  findDealerPasswordForUpdate,
  findOwnProfile,
  lockOwnProfile,
  replaceDealerPassword,
  updateOwnProfile as writeOwnProfile,
} from '@dn/db/queries/dealer-profile';
import { endOtherSessionsOfUser } from '@dn/db/queries/sessions';
import { type changeOwnPasswordInput, type dealerProfileInput, plural } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { assertNotCommonPassword, hashPassword, verifyPassword } from '../../lib/password';
import { deviceAccount, revokeOtherDevices } from '../accounts/devices';
import { queuePasswordChangedEmail } from '../accounts/emails';
import { release } from '../accounts/rate-limit';
import { reserveSignIn, tellOwner } from '../accounts/sign-in';
import { retireTokens } from '../accounts/tokens';
import { audit } from '../audit/audit';
import { listOwnDevices, listOwnSessions } from '../team/own-account';

/** What a signed-in dealer changes themselves (issue 15): profile, password, sessions. Email and tier stay the admin's. */

type DealerCtx = Context & { user: User };

export async function ownProfile(ctx: DealerCtx) {
  const p = await findOwnProfile(ctx.db, ctx.user.id);
  if (!p) throw new AppError('NOT_FOUND', 'Dealer not found');
  return {
    email: p.email,
    tier: p.tier,
    fullName: p.fullName,
    companyName: p.companyName ?? '',
    phoneE164: p.phoneE164,
    addressJson: { street: '', city: '', state: '', zipCode: '', country: 'US', ...(p.addressJson ?? {}) },
    logoUrl: p.logoUrl ?? '',
    crmName: p.crmName ?? '',
    inReferralPicker: p.inReferralPicker,
  };
}

/** Saves the profile; the changed fields (before and after) go to the audit trail, so the admin timeline shows them. */
export async function updateOwnProfile(ctx: DealerCtx, input: z.output<typeof dealerProfileInput>) {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnProfile(trx, ctx.user.id);
    if (!before) throw new AppError('NOT_FOUND', 'Dealer not found');
    const next = {
      companyName: input.companyName ?? null,
      phoneE164: input.phoneE164,
      addressJson: input.addressJson,
      logoUrl: input.logoUrl || null,
      crmName: input.crmName || null,
      // Leaving the referral picker (issue 35): kept as it was when the client does not say.
      inReferralPicker: input.inReferralPicker ?? before.inReferralPicker,
    };
    const fields = (Object.keys(next) as (keyof typeof next)[]).filter(
      (k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(next[k]),
    );
    if (fields.length === 0) return [];
    await writeOwnProfile(trx, ctx.user.id, { ...next, addressJson: JSON.stringify(next.addressJson) });
    await audit(trx, ctx, {
      eventType: 'dealer.profile_updated',
      category: 'dealer',
      message: `${before.email} updated their profile: ${fields.join(', ')}`,
      dealerId: ctx.user.id,
      details: {
        fields,
        before: Object.fromEntries(fields.map((f) => [f, before[f] ?? null])),
        after: Object.fromEntries(fields.map((f) => [f, next[f]])),
      },
    });
    return fields;
  });
  return { ok: true as const, changed };
}

/**
 * The current password is required, checked as a sign-in is: it spends the account's sign-in
 * budget before the hash (issue 35, finding 2). The other sessions and remembered devices end, live
 * reset and set-up links are retired, and the "password changed" email goes out.
 */
export async function changeDealerPassword(ctx: DealerCtx, input: z.output<typeof changeOwnPasswordInput>) {
  assertNotCommonPassword(input.newPassword, 'newPassword');
  await verifyDealerPassword(ctx, input.currentPassword, 'dealer.password_change_failed');
  const hash = await hashPassword(input.newPassword);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const dealer = await findDealerPasswordForUpdate(trx, ctx.user.id);
    if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
    await replaceDealerPassword(trx, dealer.id, hash);
    const n = await endOtherSessionsOfUser(trx, dealer.id, ctx.meta.sessionRef, 'password_changed');
    // A link emailed before the change would set a password over it (issue 35, finding 11).
    await retireTokens(trx, dealer.id);
    await revokeOtherDevices(ctx, trx);
    await queuePasswordChangedEmail(trx, dealer, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.password_changed',
      category: 'auth',
      message: `${dealer.email} changed their password`,
      dealerId: dealer.id,
      details: { otherSessionsEnded: n },
    });
    return n;
  });
  ctx.mail.kick();
  return { ok: true as const, otherSessionsEnded: ended };
}

/**
 * The signed-in dealer's current password, checked as a sign-in is (issue 35, finding 2): the
 * account's sign-in budget is spent before the hash (429 past it), a wrong one is audited as
 * `failedEvent` and answered 400 on `currentPassword`; the right one gives its reservation back.
 * A password change and a change of payout destination (issue 45) ask for it.
 */
export async function verifyDealerPassword(ctx: DealerCtx, currentPassword: string, failedEvent: string) {
  const account = ctx.user.email ?? '';
  const reservation = await reserveSignIn(ctx, 'dealer', account);
  const row = await findDealerPasswordForUpdate(ctx.db, ctx.user.id);
  if (!row?.password || !(await verifyPassword(row.password, currentPassword, deviceAccount('dealer', account)))) {
    await tellOwner(ctx, 'dealer', account);
    await audit(ctx.db, ctx, {
      eventType: failedEvent,
      category: 'auth',
      message: 'A wrong current password was given',
      dealerId: ctx.user.id,
      success: false,
    });
    throw new AppError('INVALID_INPUT', 'Current password is incorrect', {
      fieldErrors: { currentPassword: 'Current password is incorrect' },
    });
  }
  await release(ctx.db, reservation);
}

/** The dealer's live sessions (the admins' list, issue 14): device, last seen, which one is this. */
export const listDealerSessions = (ctx: DealerCtx) => listOwnSessions(ctx);

/** The browsers remembered for the dealer's sign-ins (issue 35), listed under the sessions. */
export const listDealerDevices = (ctx: DealerCtx) => listOwnDevices(ctx);

/** "Sign out everywhere": every other session and remembered device of this dealer ends at once. */
export async function signOutOtherSessions(ctx: DealerCtx) {
  const n = await endOtherSessionsOfUser(ctx.db, ctx.user.id, ctx.meta.sessionRef, 'signed_out_elsewhere');
  await revokeOtherDevices(ctx);
  await audit(ctx.db, ctx, {
    eventType: 'dealer.signed_out_everywhere',
    category: 'auth',
    message: `Signed out of ${plural(n, 'other session')}`,
    dealerId: ctx.user.id,
    details: { ended: n },
  });
  return { ok: true as const, ended: n };
}
