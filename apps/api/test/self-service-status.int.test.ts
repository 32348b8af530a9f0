import { sql } from '@dn/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDealer, mailHarnessForFile, signInAdmin, signInDealer } from './helpers';
import { application } from './site-fixtures';

// Issue 15: the applicant's private status link.
const h = mailHarnessForFile();
let admin: string;
beforeAll(async () => {
  admin = await signInAdmin(h.app);
});

/** Applies and returns the status token from the real "application received" email. */
async function apply(over: Record<string, unknown> = {}) {
  const body = application('Affiliate', over);
  const res = await h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: body });
  expect(res.statusCode).toBe(200);
  await h.app.deps.mail.flush();
  const mail = await h.smtp.waitFor(body.email, /Application received/);
  const token = /https:\/\/dealers\.test\/application\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  expect(token).toBeDefined();
  expect(mail.html).toContain(`/application/${token}`);
  const dealer = await h.db
    .selectFrom('dealers')
    .select('id')
    .where('email', '=', body.email)
    .executeTakeFirstOrThrow();
  return { token: token!, id: dealer.id, body };
}
const status = (token: string) => h.app.inject(`/api/application-status/${token}`);
/** POST .../status-link/revoke for `dealerId`, as the holder of `cookie` (signed out without one). */
const revoke = (dealerId: string, cookie?: string) =>
  h.app.inject({
    method: 'POST',
    url: `/api/admin/dealers/${dealerId}/status-link/revoke`,
    headers: cookie ? { cookie } : {},
  });

describe('application status link', () => {
  it('the email carries a link whose page says where the application stands; only the hash is stored', async () => {
    const { token, id, body } = await apply();
    const res = await status(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      stage: 'received',
      fullName: body.fullName,
      rejectionReason: null,
      reviewWithin: '2-3 business days',
      onboardingCallWithin: '5 business days',
      booking: { name: body.fullName, email: body.email, phone: '+15125550142' },
    });
    // nothing more than the page: no ids, no admin fields
    expect(Object.keys(res.json()).sort()).toEqual(
      [
        'booking',
        'companyName',
        'decidedAt',
        'decisionExpectedBy', // issue 38
        'fullName',
        'nextStep',
        'onboardingCallWithin',
        'rejectionReason',
        'reviewWithin',
        'stage',
        'submittedAt',
        'tier',
      ].sort(),
    );
    expect(res.body).not.toContain(id);
    const rows = await h.db.selectFrom('applicationStatusLinks').selectAll().where('dealerId', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('reads received on the day it arrives, then under review from the next business day or once an admin acts', async () => {
    const fresh = await apply();
    const page = (await status(fresh.token)).json();
    expect(page.stage).toBe('received');
    expect(page.nextStep).toMatch(
      /^We have your application\. Review starts on (Monday|Tuesday|Wednesday|Thursday|Friday), /,
    );
    // Submitted four days ago: a business day has begun since, whatever today is.
    await h.db
      .updateTable('dealers')
      .set({ createdAt: sql<Date>`now() - interval '4 days'` })
      .where('id', '=', fresh.id)
      .execute();
    expect((await status(fresh.token)).json()).toMatchObject({ stage: 'under_review', rejectionReason: null });

    // Submitted just now, but an admin has already acted on it (here a tier change): under review.
    const acted = await apply();
    expect((await status(acted.token)).json().stage).toBe('received');
    const tier = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${acted.id}/upgrade-tier`,
      headers: { cookie: admin },
      payload: { tier: 'Authorized' },
    });
    expect(tier.statusCode, tier.body).toBe(200);
    expect((await status(acted.token)).json()).toMatchObject({ stage: 'under_review', tier: 'Authorized' });
  });

  it('shows the rejection with the admin reason, and the approval with the next step', async () => {
    const rejected = await apply();
    const r = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${rejected.id}/reject`,
      headers: { cookie: admin },
      payload: { reason: 'Outside our service area' },
    });
    expect(r.statusCode).toBe(200);
    expect((await status(rejected.token)).json()).toMatchObject({
      stage: 'rejected',
      rejectionReason: 'Outside our service area',
    });
    const approved = await apply();
    const a = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${approved.id}/approve`,
      headers: { cookie: admin },
      payload: {},
    });
    expect(a.statusCode).toBe(200);
    const page = (await status(approved.token)).json();
    expect(page.stage).toBe('approved');
    expect(page.nextStep).toMatch(/onboarding call/);
  });

  it('an admin revokes it: 404 from then on, audited; revoking twice revokes nothing more', async () => {
    const { token, id } = await apply();
    expect(
      (await h.app.inject({ url: `/api/admin/dealers/${id}/status-link`, headers: { cookie: admin } })).json(),
    ).toEqual({
      live: true,
    });
    const res = await revoke(id, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, revoked: 1 });
    expect((await status(token)).statusCode).toBe(404);
    expect(
      (await h.app.inject(`/trpc/site.applicationStatus?input=${encodeURIComponent(JSON.stringify({ token }))}`))
        .statusCode,
    ).toBe(404);
    const again = await revoke(id, admin);
    expect(again.json()).toEqual({ ok: true, revoked: 0 });
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('dealerId', '=', id)
      .where('eventType', '=', 'dealer.status_link_revoked')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('unknown or malformed tokens are 404 or 400, never 500', async () => {
    expect((await status('A'.repeat(43))).statusCode).toBe(404);
    for (const t of ['short', 'x'.repeat(200), '%27%3B--', '..%2F..%2Fetc']) {
      const res = await status(t);
      expect([400, 404]).toContain(res.statusCode);
    }
  });

  it('revoking needs an admin: 401 signed out, 403 for a dealer, 400/404 for a bad or unknown id with nothing stored', async () => {
    const { id, token } = await apply();
    expect((await revoke(id)).statusCode).toBe(401);
    const dealer = await createDealer(h.db);
    const cookie = await signInDealer(h.app, dealer.email);
    expect((await revoke(id, cookie)).statusCode).toBe(403);
    expect((await revoke('nope', admin)).statusCode).toBe(400);
    expect((await revoke('00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    expect((await status(token)).statusCode).toBe(200);
  });
});
