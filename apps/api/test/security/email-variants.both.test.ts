import { sql } from '@dn/db';
import { canonicalMailbox } from '@dn/schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInDealer } from '../helpers';
import { application, booking } from './support';

/**
 * Issue 35, finding 1: an address that mail libraries deliver to the same mailbox as another
 * (a comment, a display name, a group, a `+tag`, gmail's dots) must not open a fresh email budget,
 * a second application or a self-referral. Only a plain `local@domain` is accepted (400 naming the
 * field otherwise); budgets, duplicate applications and the self-referral check use the canonical
 * mailbox; the address as typed is what is stored.
 */
const MAX = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ limits: { mailPerRecipient: { max: MAX, windowSec: 3600 } } });
});
afterAll(async () => {
  await h?.close();
});

let n = 0;
const tag = () => `${Date.now().toString(36)}${++n}`;
/** A different future day for each booking (one slot per address and day is unique). */
const day = (i: number) => new Date(Date.now() + (7 + i) * 86_400_000).toISOString().slice(0, 10);
const book = (email: string, i: number) =>
  h.app.inject({
    method: 'POST',
    url: '/api/schedule-call',
    remoteAddress: `10.120.${i % 250}.${1 + Math.floor(i / 250)}`,
    payload: booking(email, { preferredDate: day(i) }),
  });
const signup = (email: string, i: number, over: Record<string, unknown> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/dealer-signup',
    remoteAddress: `10.121.${i % 250}.1`,
    payload: application(email, over),
  });
const callsLike = async (pattern: string) =>
  (await h.db.selectFrom('callSchedules').select('email').where('email', 'ilike', pattern).execute()).map(
    (r) => r.email,
  );

describe('only a plain address is accepted', () => {
  const forms = (victim: string) => [
    `${victim}(1)`,
    `(c)${victim}`,
    `a<${victim}>`,
    `Victim <${victim}>`,
    `g:${victim};`,
    `"victim"@${victim.split('@')[1]}`,
    `${victim}, other@example.net`,
    `vic tim@${victim.split('@')[1]}`,
    `${victim.replace('@', ' @')}`,
  ];

  it('a comment, display name, group, quotes or whitespace: 400 naming the field, on booking, signup and reset; nothing stored', async () => {
    const victim = `victim.${tag()}@example.com`;
    for (const [i, form] of forms(victim).entries()) {
      for (const res of [
        await book(form, i),
        await signup(form, i),
        await h.app.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email: form } }),
      ]) {
        expect(res.statusCode, `${form}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fieldErrors ?? {}), form).toEqual(['email']);
      }
    }
    expect(await callsLike(`%${victim.split('@')[0]}%`)).toEqual([]);
    const mails = await h.db.selectFrom('emailOutbox').select('id').where('toAddress', 'ilike', `%victim%`).execute();
    expect(mails).toEqual([]);
  });

  it('plain addresses with a +tag, dots, digits, dashes and subdomains are still accepted', async () => {
    for (const [i, ok] of [`first.last+news.${tag()}@mail.example.co.uk`, `o'neil-${tag()}@example.com`].entries()) {
      expect((await book(ok, 40 + i)).statusCode, ok).toBe(200);
    }
  });
});

describe('one mailbox, one budget', () => {
  it('20 parallel bookings for variants of one gmail mailbox (+tags, dots, case, googlemail.com): exactly the budget is booked and emailed, each stored as typed', async () => {
    const local = `victim${tag()}`;
    const dotted = `${local.slice(0, 3)}.${local.slice(3)}`;
    const variants = Array.from({ length: 20 }, (_, i) =>
      [
        `${local}+${i}@gmail.com`,
        `${dotted}@gmail.com`,
        `${dotted}+x${i}@googlemail.com`,
        `${local.toUpperCase()}@GMail.com`,
        `${local.split('').join('.')}@gmail.com`,
      ][i % 5]!.replace(/^(.*)$/, (v) => (i < 5 ? v : v.replace('@', `+p${i}@`))),
    );
    const answers = await Promise.all(variants.map((v, i) => book(v, i)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(MAX);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(20 - MAX);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // Stored as typed (case aside), never as the canonical mailbox.
    const typed = variants.map((v) => v.toLowerCase());
    const stored = (await h.db.selectFrom('callSchedules').select('email').where('email', 'in', typed).execute()).map(
      (r) => r.email,
    );
    expect(stored).toHaveLength(MAX);
    const mails = await h.db.selectFrom('emailOutbox').select('toAddress').where('toAddress', 'in', typed).execute();
    expect(mails).toHaveLength(MAX);
  });

  it('the same with +tags on any other domain', async () => {
    const local = `boss${tag()}`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => book(`${local}+${i}@corp.example`, 60 + i)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(MAX);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(12 - MAX);
    // Dots are kept apart outside gmail: a.boss is another mailbox.
    expect((await book(`a.${local}@corp.example`, 80)).statusCode).toBe(200);
  });
});

describe('one mailbox, one application', () => {
  it('10 parallel signups for +tag and dot variants of one mailbox: one application is stored, the rest are refused', async () => {
    const local = `applicant${tag()}`;
    const variants = Array.from({ length: 10 }, (_, i) =>
      i % 2 ? `${local}+${i}@gmail.com` : `${local.slice(0, 4)}.${local.slice(4)}+${i}@googlemail.com`,
    );
    const answers = await Promise.all(variants.map((v, i) => signup(v, i)));
    for (const r of answers) expect([200, 409, 429], r.body).toContain(r.statusCode);
    const stored = await h.db
      .selectFrom('dealers')
      .select('email')
      .where('email', 'ilike', `%${local.slice(4)}%`)
      .execute();
    expect(stored).toHaveLength(1);
    expect(variants).toContain(stored[0]!.email);
    // One "application received" email, to the address as typed.
    const mails = await h.db
      .selectFrom('emailOutbox')
      .select('toAddress')
      .where('toAddress', 'ilike', `%${local.slice(4)}%`)
      .execute();
    expect(mails.map((m) => m.toAddress)).toEqual([stored[0]!.email]);
  });

  it('a later variant of a stored mailbox is not stored again', async () => {
    const local = `taken${tag()}`;
    expect((await signup(`${local}@example.org`, 200)).statusCode).toBe(200);
    const again = await signup(`${local.toUpperCase()}+second@Example.org`, 201);
    expect(again.statusCode).toBeLessThan(500);
    const stored = await h.db.selectFrom('dealers').select('email').where('email', 'ilike', `${local}%`).execute();
    expect(stored.map((r) => r.email)).toEqual([`${local}@example.org`]);
  });
});

describe('self-referral through a variant of the recruiter’s own mailbox', () => {
  it('signups at recruiter+1@… and r.ecruiter@googlemail.com through the recruiter’s own link and picker are never attributed to the recruiter', async () => {
    const local = `recruiter${tag()}`;
    const recruiter = await createDealer(h.db, { email: `${local}@gmail.com` });
    const cookie = await signInDealer(h.app, recruiter.email);
    const recruiterId = `r${tag()}`.slice(0, 20);
    const link = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      payload: { recruiterId },
      headers: { cookie },
    });
    expect(link.statusCode).toBe(200);
    const variants = [`${local}+1@gmail.com`, `${local.slice(0, 5)}.${local.slice(5)}@googlemail.com`];
    for (const [i, variant] of variants.entries()) {
      expect((await signup(variant, 220 + i, { recruiterId })).statusCode).toBeLessThan(500);
      expect((await signup(variant, 230 + i, { referredBy: recruiter.id })).statusCode).toBeLessThan(500);
    }
    const referred = await h.db.selectFrom('dealers').select('email').where('referredBy', '=', recruiter.id).execute();
    expect(referred).toEqual([]);
    const counted = await h.db
      .selectFrom('affiliateLinks')
      .select('totalReferrals')
      .where('recruiterId', '=', recruiterId)
      .executeTakeFirstOrThrow();
    expect(counted.totalReferrals).toBe(0);
    // No set-password or "application received" email reaches the recruiter's inbox under a variant.
    const mails = await h.db.selectFrom('emailOutbox').select('toAddress').where('toAddress', 'in', variants).execute();
    expect(mails).toEqual([]);
  });
});

describe('the canonical mailbox', () => {
  it('is the same in the app (budgets, self-referral) and in the database (one application per mailbox), for any plain address', async () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
    const atom = fc.stringMatching(/^[A-Za-z0-9_'-]{1,6}$/);
    const local = fc
      .tuple(fc.array(atom, { minLength: 1, maxLength: 3 }), fc.option(atom, { nil: undefined }))
      .map(([parts, plus]) => `${parts.join('.')}${plus ? `+${plus}` : ''}`);
    const domain = fc.oneof(
      fc.constantFrom('gmail.com', 'GMail.com', 'googlemail.com', 'example.com'),
      fc
        .tuple(fc.array(label, { minLength: 1, maxLength: 2 }), fc.constantFrom('com', 'org', 'co'))
        .map(([ls, tld]) => `${ls.join('.')}.${tld}`),
    );
    const addresses = fc.sample(
      fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`),
      300,
    );
    const rows = await sql<{ a: string; m: string }>`
      select a, dn_mailbox(a) as m from unnest(${addresses}::text[]) as a`.execute(h.db);
    for (const r of rows.rows) expect(r.m, r.a).toBe(canonicalMailbox(r.a));
    expect(rows.rows).toHaveLength(addresses.length);
  });
});
