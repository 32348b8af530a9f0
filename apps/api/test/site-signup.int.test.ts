import { createTestDatabase, testDbKind } from '@dn/db/testing';
import { describe, expect, it } from 'vitest';
import { sealReferralRef } from '../src/lib/referral-ref';
import { createDealer, createHarness, mailHarnessForFile, TEST_SECRET, totalReferralsOf, uniqueEmail } from './helpers';
import { application, createLink, raceHarness } from './site-fixtures';

/** The picker's opaque reference to a dealer, as the typeahead answers it (issue 35: never the id). */
const refOf = (dealerId: string) => sealReferralRef(TEST_SECRET, dealerId);

const h = mailHarnessForFile();

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: payload as object, headers });

const dealerByEmail = (email: string) =>
  h.db.selectFrom('dealers').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

const countDealers = async () =>
  Number(
    (
      await h.db
        .selectFrom('dealers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/dealer-signup: success', () => {
  for (const tier of ['Affiliate', 'Authorized', 'Preferred'] as const) {
    it(`stores a ${tier} application as pending and emails the applicant`, async () => {
      const body = application(tier, { email: `  Mixed.${tier}.${Date.now()}@Example.COM ` });
      const res = await post(body, { 'user-agent': 'SiteTest/1.0' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, status: 'pending' });
      const email = (body.email as string).trim().toLowerCase();
      const row = await dealerByEmail(email);
      expect(row).toMatchObject({ tier, status: 'pending', phoneE164: '+15125550142', accessGranted: false });
      expect(row?.password).toBeNull();
      expect(row?.uaHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row?.uaHash).not.toContain('SiteTest');
      expect(row?.originalPayload).toMatchObject({ email, tier });
      expect(row?.referredBy).toBeNull();
      expect(row?.entityType).toBe(tier === 'Affiliate' ? null : 'LLC');
      expect(row?.permittingCapable).toBe(tier === 'Preferred');
      expect(row?.productVerticals).toEqual(['Solar: Residential', 'Healthy Food & Water: Water']);
      const audit = await h.db
        .selectFrom('auditLogs')
        .select(['eventType', 'category'])
        .where('dealerId', '=', row!.id)
        .execute();
      expect(audit).toContainEqual({ eventType: 'dealer.signed_up', category: 'signup' });
      await h.app.deps.mail.flush();
      const mail = await h.smtp.waitFor(email, /Application received/);
      expect(mail.text).toContain('2-3 business days');
      expect(mail.text).toContain('5 business days');
    });
  }

  it('drops installer-only answers from an Affiliate application', async () => {
    const body = application('Affiliate', { entityType: 'LLC', licensedInstallers: true, permittingCapable: true });
    expect((await post(body)).statusCode).toBe(200);
    const row = await dealerByEmail(body.email as string);
    expect(row).toMatchObject({ entityType: null, licensedInstallers: false, permittingCapable: false });
  });

  it('works through the tRPC twin', async () => {
    const body = application('Authorized');
    const res = await h.app.inject({ method: 'POST', url: '/trpc/site.signup', payload: body });
    expect(res.statusCode).toBe(200);
    expect(await dealerByEmail(body.email as string)).toMatchObject({ status: 'pending' });
  });
});

describe('POST /api/dealer-signup: the validation table', () => {
  const cases: [string, 'Affiliate' | 'Authorized' | 'Preferred', Record<string, unknown>, string, string][] = [
    ['fullName missing', 'Affiliate', { fullName: '' }, 'fullName', 'Full name is required'],
    ['fullName one letter', 'Affiliate', { fullName: 'J' }, 'fullName', 'Full name is required'],
    ['email missing', 'Affiliate', { email: '' }, 'email', 'Email required'],
    ['email malformed', 'Affiliate', { email: 'not-an-email' }, 'email', 'Valid email is required'],
    ['phone missing', 'Affiliate', { phoneE164: '' }, 'phoneE164', 'Phone required'],
    ['phone short', 'Affiliate', { phoneE164: '555-0142' }, 'phoneE164', 'Valid phone number is required'],
    [
      'street missing',
      'Affiliate',
      { addressJson: { city: 'A', state: 'TX', zipCode: '78701' } },
      'addressJson.street',
      'Street address is required',
    ],
    [
      'city missing',
      'Affiliate',
      { addressJson: { street: '1 Main', city: ' ', state: 'TX', zipCode: '78701' } },
      'addressJson.city',
      'City is required',
    ],
    [
      'state short',
      'Affiliate',
      { addressJson: { street: '1 Main', city: 'Austin', state: 'T', zipCode: '78701' } },
      'addressJson.state',
      'State required',
    ],
    [
      'zip short',
      'Affiliate',
      { addressJson: { street: '1 Main', city: 'Austin', state: 'TX', zipCode: '787' } },
      'addressJson.zipCode',
      'ZIP code is required',
    ],
    ['tier unknown', 'Affiliate', { tier: 'Gold' }, 'tier', 'Please choose a dealer tier'],
    ['no referral answer', 'Affiliate', { referredBy: undefined }, 'referredBy', 'Please select how you were referred'],
    ['referredBy not a uuid', 'Affiliate', { referredBy: 'bob' }, 'referredBy', 'Please select how you were referred'],
    ['entityType for Authorized', 'Authorized', { entityType: '' }, 'entityType', 'Business entity type is required'],
    [
      'entityType for Preferred',
      'Preferred',
      { entityType: undefined },
      'entityType',
      'Business entity type is required',
    ],
    [
      'salesReps missing',
      'Authorized',
      { salesReps: undefined },
      'salesReps',
      'Number of sales representatives is required',
    ],
    ['salesReps zero', 'Preferred', { salesReps: 0 }, 'salesReps', 'At least 1 sales representative is required'],
    [
      'monthlyVolume missing',
      'Authorized',
      { monthlyVolume: '' },
      'monthlyVolume',
      'Expected monthly volume is required',
    ],
    ['monthlyVolume zero', 'Preferred', { monthlyVolume: 0 }, 'monthlyVolume', 'Monthly volume must be greater than 0'],
    [
      'onboarding call refused',
      'Affiliate',
      { onboardingCallOk: false },
      'onboardingCallOk',
      'You must agree to participate in the onboarding call',
    ],
  ];
  for (const [name, tier, over, field, message] of cases) {
    it(`${name}: 400 '${message}', nothing stored`, async () => {
      const body = application(tier, over);
      const before = await countDealers();
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().fieldErrors?.[field]).toBe(message);
      expect(JSON.stringify(res.json())).toContain(message);
      expect(await countDealers()).toBe(before);
    });
  }

  it('an Affiliate needs no entity type, sales reps or volume', async () => {
    const body = application('Affiliate', { salesReps: undefined, monthlyVolume: undefined, entityType: undefined });
    expect((await post(body)).statusCode).toBe(200);
  });

  it('a recruiter id stands in for the referral answer', async () => {
    const body = application('Affiliate', { referredBy: undefined, recruiterId: 'nobody-known' });
    expect((await post(body)).statusCode).toBe(200);
  });

  it('never answers 5xx to malformed bodies', async () => {
    const bodies: unknown[] = [
      'plain text',
      '[]',
      'null',
      '{"tier":',
      JSON.stringify({ ...application('Affiliate'), addressJson: 'nope' }),
      JSON.stringify({ ...application('Affiliate'), productVerticals: 'Solar' }),
      JSON.stringify({ ...application('Affiliate'), productVerticals: ['Not a thing'] }),
      JSON.stringify({ ...application('Affiliate'), crewCount: -1 }),
      JSON.stringify({ ...application('Preferred'), salesReps: 'many' }),
      JSON.stringify({ ...application('Affiliate'), onboardingCallOk: 'yes' }),
      JSON.stringify({ ...application('Affiliate'), fullName: 'x'.repeat(5000) }),
      '{"__proto__":{"tier":"Preferred"},"constructor":{"prototype":{}}}',
      JSON.stringify({ ...application('Affiliate'), referredBy: '00000000-0000-4000-8000-000000000000' }),
    ];
    for (const payload of bodies) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/dealer-signup',
        payload: payload as string,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, String(payload).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, String(payload).slice(0, 80)).toBeLessThan(500);
    }
  });
});

describe('duplicates', () => {
  // Issue 35 changed this rule: a taken email (any case) was a 409 "An application with this email
  // already exists", which told anyone who has an account. It is now answered as a new application,
  // nothing is stored, and the address's owner is told by email (test/security/small-points.both).
  it('answers a taken email (any case) as a new one and stores nothing', async () => {
    const body = application('Affiliate');
    const first = await post(body);
    expect(first.statusCode).toBe(200);
    const again = await post({ ...body, email: (body.email as string).toUpperCase() });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    const rows = await h.db
      .selectFrom('dealers')
      .select('id')
      .where('email', 'ilike', body.email as string)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps exactly one row when 20 identical signups arrive at once', async () => {
    const race = await raceHarness();
    try {
      const email = uniqueEmail('race');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          race.app.inject({
            method: 'POST',
            url: '/api/dealer-signup',
            payload: application('Affiliate', { email: i % 2 ? email.toUpperCase() : email }),
          }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      // Issue 35: the duplicates answer as the stored one (they were 409).
      expect(codes.filter((c) => c === 200)).toHaveLength(20);
      const rows = await race.db.selectFrom('dealers').select('id').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    } finally {
      await race.close();
    }
  });
});

describe('referral attribution', () => {
  it('a link recruiter id sets referredBy, type automatic, and counts the referral', async () => {
    const recruiter = await createDealer(h.db, { status: 'approved', fullName: 'Rita Recruiter' });
    const link = await createLink(h.db, recruiter.id, 'rita-01');
    const body = application('Affiliate', { recruiterId: 'RITA-01', referredBy: undefined });
    expect((await post(body)).statusCode).toBe(200);
    const row = await dealerByEmail(body.email as string);
    expect(row).toMatchObject({ referredBy: recruiter.id, referralType: 'automatic' });
    expect(await totalReferralsOf(h.db, { linkId: link.id })).toBe(1);
  });

  it('the link wins over the picker', async () => {
    const recruiter = await createDealer(h.db, { status: 'approved' });
    const other = await createDealer(h.db, { status: 'approved' });
    await createLink(h.db, recruiter.id, 'link-wins');
    const body = application('Affiliate', { recruiterId: 'link-wins', referredBy: refOf(other.id) });
    expect((await post(body)).statusCode).toBe(200);
    expect(await dealerByEmail(body.email as string)).toMatchObject({
      referredBy: recruiter.id,
      referralType: 'automatic',
    });
  });

  it('an inactive link does not attribute', async () => {
    const recruiter = await createDealer(h.db, { status: 'approved' });
    await createLink(h.db, recruiter.id, 'sleepy-link', false);
    const body = application('Affiliate', { recruiterId: 'sleepy-link', referredBy: undefined });
    expect((await post(body)).statusCode).toBe(200);
    expect(await dealerByEmail(body.email as string)).toMatchObject({ referredBy: null, referralType: null });
  });

  it('an unknown recruiter id is audited and the signup still succeeds', async () => {
    const body = application('Affiliate', { recruiterId: 'ghost_99', referredBy: undefined });
    expect((await post(body)).statusCode).toBe(200);
    const row = await dealerByEmail(body.email as string);
    expect(row).toMatchObject({ referredBy: null, status: 'pending' });
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['eventType', 'recruiterId', 'success'])
      .where('dealerId', '=', row!.id)
      .where('eventType', '=', 'referral.unknown_recruiter')
      .executeTakeFirst();
    expect(audit).toEqual({ eventType: 'referral.unknown_recruiter', recruiterId: 'ghost_99', success: false });
  });

  it('a recruiter cannot refer their own email', async () => {
    const recruiter = await createDealer(h.db, { status: 'approved' });
    const link = await createLink(h.db, recruiter.id, 'selfie');
    const res = await post(application('Affiliate', { email: recruiter.email, recruiterId: 'selfie' }));
    // The email is taken: answered as any signup since issue 35 (was 409), and nothing is stored.
    expect(res.statusCode).toBe(200);
    expect(await totalReferralsOf(h.db, { linkId: link.id })).toBe(0);
  });

  it('a dealer picked by name sets type manual', async () => {
    const referrer = await createDealer(h.db, { status: 'active' });
    const body = application('Preferred', { referredBy: refOf(referrer.id) });
    expect((await post(body)).statusCode).toBe(200);
    expect(await dealerByEmail(body.email as string)).toMatchObject({
      referredBy: referrer.id,
      referralType: 'manual',
    });
  });

  it('refuses a picked referrer who is not an approved dealer', async () => {
    const pending = await createDealer(h.db, { status: 'pending' });
    const body = application('Affiliate', { referredBy: refOf(pending.id) });
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please select how you were referred');
    expect(await dealerByEmail(body.email as string)).toBeUndefined();
  });
});

describe('rate limit', () => {
  it('refuses signups past signupPerIp with 429', async () => {
    const limited = await createHarness({ limits: { signupPerIp: { max: 2, windowSec: 60 } } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/dealer-signup',
          payload: application('Affiliate'),
        });
        codes.push(r.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  const emailHits = async (db: typeof h.db, email: string) =>
    (await db.selectFrom('rateLimits').select('count').where('key', '=', `mail:to:${email}`).executeTakeFirst())
      ?.count ?? 0;

  it('20 identical signups at once under the real email budget: one stored, five emails, five hits counted', async () => {
    const database = await createTestDatabase(testDbKind(), testDbKind() === 'pglite' ? 1 : 10);
    const race = await createHarness({ database, limits: { mailPerRecipient: { max: 5, windowSec: 3600 } } });
    try {
      const email = uniqueEmail('budget-race');
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          race.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: application('Affiliate', { email }) }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      // Issue 35: a duplicate within the email budget answers as the stored one and tells the
      // address by email (was 409); beyond the budget, 429 as for any address.
      expect(codes.filter((c) => c === 200)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(15);
      expect(await race.db.selectFrom('dealers').select('id').where('email', '=', email).execute()).toHaveLength(1);
      const queued = await race.db.selectFrom('emailOutbox').select('kind').where('toAddress', '=', email).execute();
      expect(queued.filter((q) => q.kind === 'application_received')).toHaveLength(1);
      expect(queued.filter((q) => q.kind === 'application_exists')).toHaveLength(4);
      // Every refused application gave its hit back: the budget holds the five emails queued.
      expect(await emailHits(race.db, email)).toBe(5);
    } finally {
      await race.close();
      await database.close();
    }
  });

  it('20 different signups at once from one address: the budget stores that many, and the refused spend no email', async () => {
    const database = await createTestDatabase(testDbKind(), testDbKind() === 'pglite' ? 1 : 10);
    const burst = await createHarness({ database, limits: { signupPerIp: { max: 5, windowSec: 60 } } });
    try {
      const bodies = Array.from({ length: 20 }, () => application('Affiliate'));
      const results = await Promise.all(
        bodies.map((payload) => burst.app.inject({ method: 'POST', url: '/api/dealer-signup', payload })),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(15);
      const emails = bodies.map((b) => b.email as string);
      const stored = await burst.db.selectFrom('dealers').select('email').where('email', 'in', emails).execute();
      expect(stored).toHaveLength(5);
      const queued = await burst.db.selectFrom('emailOutbox').select('id').where('toAddress', 'in', emails).execute();
      expect(queued).toHaveLength(5);
      const hits = await Promise.all(emails.map((e) => emailHits(burst.db, e)));
      expect(hits.filter((n) => n === 1)).toHaveLength(5);
      expect(hits.filter((n) => n === 0)).toHaveLength(15);
    } finally {
      await burst.close();
      await database.close();
    }
  });

  it('a signup refused for its referrer counts against the address, not the email budget', async () => {
    const limited = await createHarness({ limits: { signupPerIp: { max: 1, windowSec: 60 } } });
    try {
      const pending = await createDealer(limited.db, { status: 'pending' });
      const post1 = (body: Record<string, unknown>) =>
        limited.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: body });
      const refused = application('Affiliate', { referredBy: refOf(pending.id) });
      expect((await post1(refused)).statusCode).toBe(400);
      const next = application('Affiliate');
      expect((await post1(next)).statusCode).toBe(429);
      expect(await emailHits(limited.db, refused.email as string)).toBe(0);
      expect(await emailHits(limited.db, next.email as string)).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('a signup refused by the address budget spends nothing of the email budget', async () => {
    const limited = await createHarness({ limits: { signupPerIp: { max: 1, windowSec: 60 } } });
    try {
      const first = application('Affiliate');
      const second = application('Affiliate');
      const post1 = (body: Record<string, unknown>) =>
        limited.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: body });
      expect((await post1(first)).statusCode).toBe(200);
      expect((await post1(second)).statusCode).toBe(429);
      expect(await emailHits(limited.db, first.email as string)).toBe(1);
      expect(await emailHits(limited.db, second.email as string)).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
