import { EXPIRED_LINK, INVALID_LINK } from '@dn/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/tokens';
import { issueToken } from '../src/services/accounts/tokens';
import { createDealer, mailHarnessForFile, setupPassword, signInAdmin, signInDealer } from './helpers';

/**
 * Issue 36: a password link's page and an invitation's page ask the server about the link when
 * they open, so a dead one offers a fresh link at once and a live invitation names its email and role.
 */
const h = mailHarnessForFile({}, 180_000);
let ownerCookie: string;
beforeAll(async () => {
  ownerCookie = await signInAdmin(h.app, 'link-owner');
});

const post = (url: string, payload: unknown, cookie?: string) =>
  h.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
const issue = (dealerId: string, purpose: 'setup' | 'reset') =>
  h.db.transaction().execute((trx) => issueToken(trx, dealerId, purpose));
const expire = (token: string) =>
  h.db
    .updateTable('magicLinkTokens')
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where('token', '=', sha256(token))
    .execute();

describe('POST /api/dealer/check-link', () => {
  it('answers 200 with the purpose for a live link, and does not use it', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id, 'setup');
    const res = await post('/api/dealer/check-link', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ purpose: 'setup' });
    // Asking twice is fine, and the link still sets the password afterwards.
    expect((await post('/api/dealer/check-link', { token })).statusCode).toBe(200);
    expect((await setupPassword(h.app, { token, password: 'fresh-pass-12' })).statusCode).toBe(200);
    // Used now: 410 with the expired-link words the page shows.
    const used = await post('/api/dealer/check-link', { token });
    expect(used.statusCode).toBe(410);
    expect(used.json().message).toBe(EXPIRED_LINK);
  });

  it('answers 410 for an expired link and 400 for an unknown, malformed, missing or admin-invitation token', async () => {
    const d = await createDealer(h.db, { password: null });
    const reset = await issue(d.id, 'reset');
    expect((await post('/api/dealer/check-link', { token: reset })).json()).toEqual({ purpose: 'reset' });
    await expire(reset);
    expect((await post('/api/dealer/check-link', { token: reset })).statusCode).toBe(410);

    const unknown = await post('/api/dealer/check-link', { token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(INVALID_LINK);
    for (const payload of [{ token: 'short' }, { token: 'y'.repeat(500) }, {}, { token: 42 }]) {
      expect((await post('/api/dealer/check-link', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const invite = await inviteToken('not-a-dealer@example.com', 'viewer');
    expect((await post('/api/dealer/check-link', { token: invite })).statusCode).toBe(400);
  });
});

async function inviteToken(email: string, role: 'owner' | 'reviewer' | 'viewer') {
  const res = await post('/api/admin/team/invitations', { email, role }, ownerCookie);
  expect(res.statusCode, res.body).toBe(200);
  const mail = await h.smtp.waitFor(email, /invited/);
  return /accept-invite\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
}

describe('POST /api/auth/invitation', () => {
  it('names the email and role of a live invitation, without using it', async () => {
    const token = await inviteToken('new.reviewer@example.com', 'reviewer');
    const res = await post('/api/auth/invitation', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: 'new.reviewer@example.com', role: 'reviewer' });
    const accepted = await post('/api/auth/accept-invite', { token, fullName: 'Rae', password: 'reviewer-pass-1' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await post('/api/auth/invitation', { token })).statusCode).toBe(410);
  });

  it('answers 410 for an expired or superseded invitation and 400 for a dealer link or an unknown token', async () => {
    const first = await inviteToken('twice.viewer@example.com', 'viewer');
    h.smtp.received.length = 0;
    const second = await inviteToken('twice.viewer@example.com', 'owner');
    expect((await post('/api/auth/invitation', { token: first })).statusCode).toBe(410);
    expect((await post('/api/auth/invitation', { token: second })).json()).toEqual({
      email: 'twice.viewer@example.com',
      role: 'owner',
    });
    await expire(second);
    expect((await post('/api/auth/invitation', { token: second })).statusCode).toBe(410);

    const d = await createDealer(h.db, { password: null });
    const dealerLink = await issue(d.id, 'setup');
    expect((await post('/api/auth/invitation', { token: dealerLink })).statusCode).toBe(400);
    expect((await post('/api/auth/invitation', { token: 'z'.repeat(43) })).statusCode).toBe(400);
    expect((await post('/api/auth/invitation', { token: '' })).statusCode).toBe(400);
  });
});

describe('GET /api/auth/ended: a session ended from elsewhere says why (issue 36)', () => {
  const ended = async (cookie: string) =>
    (await h.app.inject({ url: '/api/auth/ended', headers: { cookie } })).json() as { reason: string | null };
  const me = async (cookie: string) => (await h.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode;

  it("a dealer's password change: the other browser is signed out and told the password changed", async () => {
    const d = await createDealer(h.db);
    const here = await signInDealer(h.app, d.email);
    const there = await signInDealer(h.app, d.email);
    expect(await ended(there)).toEqual({ reason: null });
    const res = await post(
      '/api/dealer/password',
      { currentPassword: 'dealer-pass-1', newPassword: 'another-pass-9' },
      here,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await me(there)).toBe(401);
    expect(await ended(there)).toEqual({ reason: 'password_changed' });
    // The browser that changed it stays signed in and has nothing to be told.
    expect(await me(here)).toBe(200);
    expect(await ended(here)).toEqual({ reason: null });
    // Signing in again in that browser starts a session that was not ended.
    const again = await signInDealer(h.app, d.email, 'another-pass-9');
    expect(await ended(again)).toEqual({ reason: null });
    // A visitor without a session, or with a made-up cookie, is told nothing.
    expect((await h.app.inject({ url: '/api/auth/ended' })).json()).toEqual({ reason: null });
    expect(await ended('dn.sid=nonsense')).toEqual({ reason: null });
  });

  it('a password set by an emailed link ends the other sessions with the same reason', async () => {
    const d = await createDealer(h.db);
    const there = await signInDealer(h.app, d.email);
    const token = await issue(d.id, 'reset');
    expect((await setupPassword(h.app, { token, password: 'reset-pass-77' })).statusCode).toBe(200);
    expect(await me(there)).toBe(401);
    expect(await ended(there)).toEqual({ reason: 'password_changed' });
  });

  it('"sign out everywhere else" is told as such; an admin\'s password change too', async () => {
    const d = await createDealer(h.db);
    const here = await signInDealer(h.app, d.email);
    const there = await signInDealer(h.app, d.email);
    expect((await post('/api/dealer/sessions/sign-out-others', {}, here)).statusCode).toBe(200);
    expect(await ended(there)).toEqual({ reason: 'signed_out_elsewhere' });

    const adminHere = await signInAdmin(h.app, 'ended-admin', 'admin-password-1');
    const adminThere = (
      await h.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { username: 'ended-admin', password: 'admin-password-1' },
      })
    ).headers['set-cookie'];
    const thereCookie = (Array.isArray(adminThere) ? adminThere : [adminThere!]).find((c) => c.startsWith('dn.sid='))!;
    const adminCookie = thereCookie.split(';')[0]!;
    const change = await post(
      '/api/admin/me/password',
      { currentPassword: 'admin-password-1', newPassword: 'new-admin-pass-5' },
      adminHere,
    );
    expect(change.statusCode, change.body).toBe(200);
    expect(await me(adminCookie)).toBe(401);
    expect(await ended(adminCookie)).toEqual({ reason: 'password_changed' });
  });
});
